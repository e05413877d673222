import Foundation

/// The one progress line on standard error, for a batch of files and for an audit: redrawn at
/// most ten times a second and cleared before anything else is printed.
///
/// - A batch: `[#####.....] 123/1000 45/s  PATH` (``update(done:path:)``), only when standard
///   error is a terminal that can redraw a line (``canRedraw(_:)``: not `TERM=dumb`) and there
///   is more than one file (``forFiles(_:shown:)``); the last file is drawn once any was.
///
/// Unless asked for (`--progress`), nothing is drawn in the first half second: a batch that
/// ends sooner needs no bar, and one that flashes past is noise.
/// - An audit: `[#####.....] 12/40 3.2/s, 4 in flight`, or `12 domains 3.2/s, 4 in flight`
///   without a known total (``update(done:inFlight:)``); the caller decides when to show it.
final class ProgressBar {
    private let total: Int?
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var inFlight = 0
    private var visible = false
    private var drawn = false
    /// Nothing is drawn before this much time has passed.
    private let delay: TimeInterval

    /// How long a batch or an audit runs before its bar appears, unless `--progress` asks for it.
    static let delay: TimeInterval = 0.5

    /// - Parameter delay: nothing is drawn before this much time has passed.
    init(total: Int?, delay: TimeInterval = ProgressBar.delay) {
        self.total = total
        self.delay = delay
    }

    /// The bar for a batch of `total` files (nil: not known before the end, as for a
    /// `--files-from` list): with `shown` (`--progress`, `--no-progress`) as asked, else only
    /// when there may be more than one file and standard error can redraw a line.
    static func forFiles(_ total: Int?, shown: Bool? = nil) -> ProgressBar? {
        switch shown {
        case false?: return nil
        case true?: return ProgressBar(total: total, delay: 0)
        case nil:
            guard total.map({ $0 > 1 }) ?? true, canRedraw(STDERR_FILENO) else { return nil }
            return ProgressBar(total: total)
        }
    }

    /// Whether `descriptor` is a terminal that can redraw a line (``Terminal/isCapable(_:environment:)``).
    static func canRedraw(_ descriptor: Int32) -> Bool { Terminal.isCapable(descriptor) }

    /// Whether the bar may be drawn at `now`: after the delay; the last update of a batch
    /// only when the bar was drawn before.
    private func due(_ now: Date, final: Bool) -> Bool {
        if final { return drawn }
        return now.timeIntervalSince(started) >= delay && now.timeIntervalSince(lastDraw) >= 0.1
    }

    /// A batch's line: `done` files of the total, the last one `path`.
    func update(done: Int, path: String) {
        let now = Date()
        guard due(now, final: false) || (done == total && due(now, final: true)) else { return }
        lastDraw = now
        let rate = Int(Double(done) / max(now.timeIntervalSince(started), 0.001))
        var line: String
        if let total {
            let width = 24
            let filled = min(width, done * width / max(total, 1))
            line =
                "[\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(done)/\(total) \(rate)/s  "
        } else {
            line = "\(done) files \(rate)/s  "
        }
        let room = max(10, 100 - line.count)
        line += path.count > room ? "…" + path.suffix(room - 1) : path
        draw(line)
    }

    /// An audit's line: `done` domains, `inFlight` being fetched (nil: as last said).
    func update(done: Int, inFlight: Int?) {
        if let inFlight { self.inFlight = inFlight }
        let now = Date()
        guard due(now, final: false) else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let rate = String(format: "%.1f/s", Double(done) / elapsed)
        var line: String
        if let total, total > 0 {
            let width = 30
            let filled = min(width, done * width / total)
            line =
                "[\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(done)/\(total)"
        } else {
            line = "\(done) domains"
        }
        line += " \(rate), \(self.inFlight) in flight"
        draw(line)
    }

    private func draw(_ line: String) {
        StandardStreams.err("\r\u{1B}[2K\(line)")
        visible = true
        drawn = true
    }

    func clear() {
        guard visible else { return }
        StandardStreams.err("\r\u{1B}[2K")
        visible = false
        lastDraw = .distantPast
    }

    func finish() { clear() }
}
