// aasa-bench: the time `aasa verify` takes, with 10,000 file names, before it reads the first
// file: the names on the command line (`aasa verify *.p7m`), and the names from
// `find … -print0` on standard input (`--files-from - --null`).
//
// How "before the first file is read" is seen from outside: the first name is a FIFO. aasa's
// open(2) of it blocks until a writer comes, and this process's non-blocking open for writing
// fails (ENXIO) until a reader is there, so the moment that open succeeds is the moment aasa
// opened its first file. The clock runs from posix_spawn to then: process start-up, the
// trust store and the handling of every name are inside it; the file's verification is not.
// The same with the FIFO as the only name is the floor, and the difference is what the
// 10,000 names cost.
import Foundation

extension Benchmark {
    /// Measures the time to the first read for `names` names both ways, and one name, in
    /// `rounds` interleaved rounds; records medians and the issue's targets.
    mutating func argumentHandling(names: Int, rounds: Int) throws {
        let signed = repository.appendingPathComponent("examples/apple-app-site-association.p7m").path
        let content = try Data(contentsOf: URL(fileURLWithPath: signed))
        let directory = path("names-\(names)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Hard links to one copy in the scratch directory (the repository may be on another file system).
        let original = path("names-original.p7m")
        try content.write(to: URL(fileURLWithPath: original))
        for index in 1...names {
            let name = "\(directory)/aasa-\(String(format: "%05d", index)).p7m"
            guard link(original, name) == 0 || errno == EEXIST else {
                throw Spawn.Failure(description: "cannot link \(name): \(String(cString: strerror(errno)))")
            }
        }
        let fifo = path("first-file.fifo")
        unlink(fifo)
        guard mkfifo(fifo, 0o600) == 0 else {
            throw Spawn.Failure(description: "mkfifo \(fifo): \(String(cString: strerror(errno)))")
        }
        // The names as find gives them, after the FIFO.
        let found = try Spawn.output(["find", directory, "-type", "f"]).split(separator: "\n").map(String.init)
        guard found.count == names else {
            throw Spawn.Failure(description: "find listed \(found.count) files in \(directory), not \(names)")
        }
        let trust = ["--ca-file", cert("ca-bundle.pem"), "--no-system-roots"]
        let pipeline =
            "{ printf '%s\\0' '\(fifo)'; find '\(directory)' -type f -print0; } | '\(aasa)' verify --files-from - --null "
            + trust.map { "'\($0)'" }.joined(separator: " ")
        let ways: [(name: String, command: [String], shown: String)] = [
            (
                "1 name on the command line (floor)", [aasa, "verify", fifo] + trust,
                displayed([aasa, "verify", "FIFO"] + trust)
            ),
            (
                "\(names) names on the command line", [aasa, "verify", fifo] + found + trust,
                displayed([aasa, "verify", "FIFO", "\(directory)/*.p7m"] + trust)
            ),
            (
                "\(names) names from find -print0 | --files-from - --null", ["/bin/sh", "-c", pipeline],
                "{ printf '%s\\0' FIFO; find \(displayed([directory])) -type f -print0; } | "
                    + displayed([aasa, "verify", "--files-from", "-", "--null"] + trust)
            ),
        ]
        var times: [String: [Double]] = [:]
        for _ in 0..<rounds {
            for way in ways {
                times[way.name, default: []].append(try timeToFirstRead(way.command, fifo: fifo, content: content))
            }
        }
        var median: [String: Double] = [:]
        for way in ways {
            let value = Stats.median(times[way.name] ?? []) * 1000
            median[way.name] = value
            report.measurements.append(
                Measurement(
                    work: "verify: time before the first file is read", by: way.name, count: nil, value: value,
                    unit: "ms (median of \(rounds))", hardwareFraction: nil, peakMB: nil, command: way.shown))
            say("time before the first file is read, \(way.name): \(String(format: "%.1f", value)) ms")
        }
        let floor = median[ways[0].name] ?? .nan
        for (way, goal) in [(ways[1].name, 100.0), (ways[2].name, 50.0)] {
            let value = median[way] ?? .nan
            report.targets.append(
                TargetCheck(
                    "time before the first file is read, \(way) (ms)", measured: value, atMost: goal,
                    detail: String(
                        format: "whole process from spawn to its open of the first file; %.1f ms more than 1 name",
                        value - floor)))
        }
    }

    /// Seconds from starting `command` to its opening `fifo` (its first file) for reading;
    /// then `content` is written to the FIFO, and the run must end with status 0.
    private func timeToFirstRead(_ command: [String], fifo: String, content: Data) throws -> Double {
        let started = try Spawn.start(command, stderr: path("first-read.stderr"))
        var writer: Int32 = -1
        while true {
            writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if writer >= 0 { break }
            guard errno == ENXIO || errno == EINTR else {
                throw Spawn.Failure(description: "open \(fifo): \(String(cString: strerror(errno)))")
            }
            var status: Int32 = 0
            if waitpid(started.pid, &status, WNOHANG) == started.pid {
                throw Spawn.Failure(description: "\(command.prefix(3)) … ended before it read its first file")
            }
            usleep(50)
        }
        let seconds = Stats.now() - started.at
        _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) & ~O_NONBLOCK)
        let written = content.withUnsafeBytes { write(writer, $0.baseAddress!, $0.count) }
        close(writer)
        let run = try Spawn.finish(started)
        guard written == content.count, run.status == 0 else {
            let text = (try? String(contentsOfFile: path("first-read.stderr"), encoding: .utf8)) ?? ""
            throw Spawn.Failure(
                description:
                    "\(command.prefix(3)) … exited \(run.status) (wrote \(written) bytes): \(text.suffix(2000))")
        }
        return seconds
    }
}
