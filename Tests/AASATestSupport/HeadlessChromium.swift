import Foundation

/// Debian's Chromium run headless on a local file, as the tests of the HTML fleet report load it:
/// the DOM after the page's scripts ran (`--dump-dom`), and a screenshot.
///
/// The page may make no request (its Content-Security-Policy), and the browser is kept from
/// reaching anything itself: no background networking, component updates, sync or proxy
/// lookup; a fresh profile per run.
public enum HeadlessChromium {
    /// `chromium` from PATH.
    public static let executable: URL = Executables.onPath("chromium", otherwise: "/usr/bin/chromium")

    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    public static let skipReason =
        "Debian's chromium is not installed (scripts/test.sh installs it): the HTML report is not loaded in a browser"

    /// What a load printed: the DOM after scripts ran, and the browser's log (console messages
    /// included, as `CONSOLE` lines).
    public struct Load: Sendable {
        public let dom: String
        public let log: String
        public let status: Int32

        /// Console messages of the page that report an error: an uncaught exception, or a
        /// Content-Security-Policy refusal.
        public var consoleErrors: [String] {
            log.split(separator: "\n").map(String.init).filter { line in
                line.contains("CONSOLE")
                    && (line.contains("Uncaught") || line.contains("Refused") || line.contains("Error"))
            }
        }
    }

    static func arguments(profile: URL) -> [String] {
        [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-default-apps", "--no-proxy-server",
            "--metrics-recording-only", "--user-data-dir=\(profile.path)", "--enable-logging=stderr", "--v=0",
        ]
    }

    /// Loads `file` (with `fragment`, without its `#`) and returns the DOM once the page's
    /// scripts ran (virtual time of `budget` milliseconds).
    public static func dumpDOM(_ file: URL, fragment: String = "", budget: Int = 10_000) throws -> Load {
        try withProfile { profile in
            let url = file.absoluteString + (fragment.isEmpty ? "" : "#" + fragment)
            let result = ProcessRunner.run(
                executable, arguments(profile: profile) + ["--virtual-time-budget=\(budget)", "--dump-dom", url],
                timeout: 180)
            return Load(dom: result.stdoutText, log: result.stderr, status: result.status)
        }
    }

    /// A PNG of `file` at `width`×`height` pixels, written to `output`.
    public static func screenshot(_ file: URL, to output: URL, width: Int = 1280, height: Int = 1600) throws -> Load {
        try withProfile { profile in
            let result = ProcessRunner.run(
                executable,
                arguments(profile: profile) + [
                    "--hide-scrollbars", "--window-size=\(width),\(height)", "--virtual-time-budget=10000",
                    "--screenshot=\(output.path)", file.absoluteString,
                ], timeout: 180)
            return Load(dom: "", log: result.stderr, status: result.status)
        }
    }

    private static func withProfile<T>(_ body: (URL) throws -> T) throws -> T {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aasa-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: profile) }
        return try body(profile)
    }
}
