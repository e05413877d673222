import Foundation

/// Runs a program and measures it as a whole process: wall time, and its peak resident set
/// size from `wait4` (what `/usr/bin/time -v` reports as "Maximum resident set size").
enum Spawn {
    struct Run {
        var status: Int32
        var seconds: Double
        /// Peak resident set size in bytes (of the child itself; for `sh -c`, of the largest
        /// process among the shell and the commands it waited for).
        var peakBytes: Int
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `arguments[0]` (a path, or a name looked up in PATH) with standard output and
    /// standard error sent to files (or /dev/null), standard input /dev/null. `environment` is
    /// added to (overrides) this process's environment; it is prepared before the clock starts.
    static func run(
        _ arguments: [String], stdout: String = "/dev/null", stderr: String = "/dev/null",
        environment: [String: String] = [:]
    ) throws -> Run {
        let started = try start(arguments, stdout: stdout, stderr: stderr, environment: environment)
        return try finish(started)
    }

    /// A process started and not yet waited for.
    struct Started {
        var pid: pid_t
        /// When it was started (``Stats/now()``).
        var at: Double
    }

    /// Starts `arguments[0]` as ``run(_:stdout:stderr:environment:)`` does, with standard
    /// input from the file `stdin`; ``finish(_:)`` waits for it.
    static func start(
        _ arguments: [String], stdin: String = "/dev/null", stdout: String = "/dev/null",
        stderr: String = "/dev/null", environment: [String: String] = [:]
    ) throws -> Started {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?] = []
        if !environment.isEmpty {
            let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let at = Stats.now()
        let status =
            envp.isEmpty
            ? posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
            : posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard status == 0 else {
            throw Failure(description: "cannot run \(arguments[0]): \(String(cString: strerror(status)))")
        }
        return Started(pid: pid, at: at)
    }

    /// Waits for a started process: its status, its time since it was started, its peak.
    static func finish(_ started: Started) throws -> Run {
        var waitStatus: Int32 = 0
        var usage = rusage()
        while wait4(started.pid, &waitStatus, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure(description: "wait4: \(String(cString: strerror(errno)))") }
        }
        let seconds = Stats.now() - started.at
        let exited = (waitStatus & 0x7F) == 0
        return Run(
            status: exited ? (waitStatus >> 8) & 0xFF : 128 + (waitStatus & 0x7F), seconds: seconds,
            peakBytes: Int(usage.ru_maxrss) * 1024)
    }

    /// Runs `arguments` under GNU time for its peak resident set size: `wait4`'s figure for a
    /// child started with posix_spawn (vfork) includes this process's own high-water mark.
    /// Falls back to ``run(_:stdout:stderr:)`` without /usr/bin/time.
    static func runMeasuringPeak(_ arguments: [String], stdout: String = "/dev/null", stderr: String = "/dev/null")
        throws -> Run
    {
        guard access("/usr/bin/time", X_OK) == 0 else { return try run(arguments, stdout: stdout, stderr: stderr) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-bench-\(UUID().uuidString).time")
            .path
        defer { unlink(file) }
        var result = try run(["/usr/bin/time", "-f", "%M", "-o", file] + arguments, stdout: stdout, stderr: stderr)
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        // GNU time writes "Command exited with non-zero status N" first when it does.
        if let kilobytes = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            result.peakBytes = kilobytes * 1024
        } else {
            result.peakBytes = 0
        }
        return result
    }

    /// Runs a /bin/sh script.
    static func shell(_ script: String, stdout: String = "/dev/null", stderr: String = "/dev/null") throws -> Run {
        try run(["/bin/sh", "-c", script], stdout: stdout, stderr: stderr)
    }

    /// Runs and returns standard output as text; throws unless it exits 0.
    static func output(_ arguments: [String]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-bench-\(UUID().uuidString).out")
            .path
        defer { unlink(file) }
        let run = try run(arguments, stdout: file)
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        guard run.status == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) exited \(run.status)")
        }
        return text
    }

    /// Runs and throws unless it exits 0 (standard error kept for the message).
    @discardableResult
    static func require(_ arguments: [String], stdout: String = "/dev/null") throws -> Run {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-bench-\(UUID().uuidString).err")
            .path
        defer { unlink(file) }
        let run = try run(arguments, stdout: stdout, stderr: file)
        guard run.status == 0 else {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            throw Failure(description: "\(arguments.joined(separator: " ")) exited \(run.status): \(text.prefix(2000))")
        }
        return run
    }
}

/// Small statistics helpers.
enum Stats {
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Seconds since an arbitrary origin, monotonic.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Times `body` `repetitions` times; the median.
    static func time(_ repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<repetitions {
            let start = now()
            try body()
            times.append(now() - start)
        }
        return median(times)
    }
}
