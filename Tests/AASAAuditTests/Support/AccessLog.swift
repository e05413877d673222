import Foundation

/// An nginx access log in the politeness format of the test servers (NginxServer's paced
/// hosts, the WAN simulation's nginx): one line per request,
/// `msec request_time connection_time connection host server_addr uri`. What the server saw
/// of `--rate` and `--max-per-address` (issue #17).
struct AccessLog {
    struct Request {
        /// When the request began (its answer's end less its duration), in Unix seconds.
        let start: Double
        /// When its answer ended.
        let end: Double
        /// When its connection began.
        let connectionStart: Double
        let connection: String
        let host: String
        let address: String
        let uri: String
    }

    let requests: [Request]

    init(_ text: String) throws {
        requests = try text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ").map(String.init)
            let numbers = fields.prefix(3).compactMap(Double.init)
            guard fields.count == 7, numbers.count == 3 else { throw NginxServer.ServerError("log line: \(line)") }
            return Request(
                start: numbers[0] - numbers[1], end: numbers[0], connectionStart: numbers[0] - numbers[2],
                connection: fields[3], host: fields[4], address: fields[5], uri: fields[6])
        }
    }

    init(requests: [Request]) {
        self.requests = requests
    }

    init(contentsOf file: URL) throws {
        try self.init(try String(contentsOf: file, encoding: .utf8))
    }

    /// The most intervals open at one time (half-open: one that ends as another starts does
    /// not overlap it).
    static func mostAtOnce(_ intervals: [(start: Double, end: Double)]) -> Int {
        var events: [(time: Double, change: Int)] = []
        for interval in intervals {
            events.append((interval.start, 1))
            events.append((interval.end, -1))
        }
        // At one time, ends before starts.
        events.sort { first, second in
            first.time != second.time ? first.time < second.time : first.change < second.change
        }
        var open = 0
        var most = 0
        for (_, change) in events {
            open += change
            most = max(most, open)
        }
        return most
    }

    /// nginx's times are its cached clock, read once per turn of its event loop, to the
    /// millisecond: one domain's end and the next one's start may be misplaced by a few
    /// milliseconds. Domains overlapping by less than this are counted one after the other
    /// (the domains of the tests take half a second and more).
    static let clockSlack = 0.005

    /// How much later than its slot a request's send may reach nginx's log on a loaded machine
    /// (a client thread scheduled late, the server's cached clock): seen up to 10 ms with three
    /// busy loops on two cores.
    static let sendJitter = 0.025

    /// For each server address, the most domains it served at once, counting only what the
    /// server saw while the client certainly held the domain's `--max-per-address` slot: from
    /// its first connection's start to the last moment the server logged before the client
    /// could have let go (less ``clockSlack`` at each end).
    ///
    /// That moment is a request's end, except for the last request of a connection: the client
    /// sends it with `Connection: close`, and nginx logs it only after its lingering close has
    /// read the client's own close, which comes after the client has its answer and has given
    /// the slot to the next domain (seen 17 ms later on a loaded machine). For that request the
    /// server's only time before the release is when it read the request.
    var mostDomainsAtOnceByAddress: [String: Int] {
        let lastOfConnection = Set(
            Dictionary(grouping: requests.indices, by: { requests[$0].connection }).values.compactMap { indices in
                indices.max { requests[$0].start < requests[$1].start }
            })
        let heldUntil = requests.indices.map { lastOfConnection.contains($0) ? requests[$0].start : requests[$0].end }
        return Dictionary(grouping: requests.indices, by: { requests[$0].address }).mapValues { lines in
            Self.mostAtOnce(
                Dictionary(grouping: lines, by: { requests[$0].host }).values.map { domain in
                    let start = domain.map { requests[$0].connectionStart }.min() ?? 0
                    let end = domain.map { heldUntil[$0] }.max() ?? 0
                    return (start + Self.clockSlack, max(start + Self.clockSlack, end - Self.clockSlack))
                })
        }
    }

    /// Each domain's requests as the server logged them, relative to the first connection, for
    /// a failure's message: `host connection start–end uri`, by start.
    var domainTimes: String {
        let origin = requests.map(\.connectionStart).min() ?? 0
        return requests.sorted { ($0.connectionStart, $0.start) < ($1.connectionStart, $1.start) }.map {
            String(
                format: "%@ c%@ %.3f/%.3f–%.3f %@", $0.host, $0.connection, $0.connectionStart - origin,
                $0.start - origin, $0.end - origin, $0.uri)
        }.joined(separator: "\n")
    }

    /// The most request starts in any one-second window [t, t + 1).
    var mostStartsInASecond: Int { Self.mostIn(window: 1, requests.map(\.start)) }

    /// When each request was sent as `--rate` paces it: a connection's first request when its
    /// connection began (the slot starts the connection attempt; the TLS handshake comes before
    /// the request), a later request on the connection when it began.
    var sends: [Double] {
        var seen: Set<String> = []
        return requests.sorted { $0.start < $1.start }.map { request in
            seen.insert(request.connection).inserted ? request.connectionStart : request.start
        }
    }

    /// The most of `times` in any window [t, t + `window`).
    static func mostIn(window: Double, _ times: [Double]) -> Int {
        let sorted = times.sorted()
        var most = 0
        var first = 0
        for (index, time) in sorted.enumerated() {
            while sorted[first] <= time - window { first += 1 }
            most = max(most, index - first + 1)
        }
        return most
    }

    /// From the first request's start to the last one's.
    var startSpan: Double {
        let starts = requests.map(\.start)
        return (starts.max() ?? 0) - (starts.min() ?? 0)
    }
}
