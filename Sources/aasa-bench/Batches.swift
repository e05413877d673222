// aasa-bench: batches through the real `aasa` binary, and how their commands are shown.
import Foundation

extension Benchmark {

    /// Runs an `aasa` batch `repetitions` times (the output directory emptied before each) and
    /// records the median rate.
    mutating func batch(
        _ work: String, arguments: [String], files: Int, jobs: Int, outDirectory: String? = nil,
        limitPerCore: Double?, acceptedStatuses: Set<Int32> = [0], repetitions: Int
    ) throws -> Measurement {
        var times: [Double] = []
        var peak = 0
        let log = path("last-run.stderr")
        let command = [aasa] + arguments + ["--jobs", String(jobs)]
        for _ in 0..<repetitions {
            if let outDirectory { try? FileManager.default.removeItem(atPath: outDirectory) }
            let run = try Spawn.runMeasuringPeak(command, stderr: log)
            guard acceptedStatuses.contains(run.status) else {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw Spawn.Failure(
                    description: "\(command.joined(separator: " ")) exited \(run.status):\n\(text.suffix(3000))")
            }
            times.append(run.seconds)
            peak = max(peak, run.peakBytes)
        }
        let rate = Double(files) / Stats.median(times)
        let measurement = Measurement(
            work: work, by: "aasa batch --jobs \(jobs)", count: files, value: rate, unit: "files/s",
            hardwareFraction: limitPerCore.map { rate / ($0 * Double(jobs)) }, peakMB: Double(peak) / 1_048_576,
            command: displayed(command))
        report.measurements.append(measurement)
        say("\(work), \(files) files, --jobs \(jobs): \(Int(rate)) files/s, peak \(Int(Double(peak) / 1_048_576)) MB")
        return measurement
    }

    /// A shell loop of `openssl smime` over the first `count` files of `directory`.
    mutating func opensslLoop(_ work: String, body: String, directory: String, count: Int, limitPerCore: Double?) throws
        -> Measurement
    {
        let list = path("openssl-list-\(count)")
        try (1...count).map { Inputs.name($0) }.joined(separator: "\n").appending("\n").write(
            toFile: list, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: path("openssl-out"), withIntermediateDirectories: true)
        let script = "cd '\(directory)' && while read f; do \(body) || exit 1; done < '\(list)'"
        let run = try Spawn.shell(script, stderr: path("openssl-loop.stderr"))
        guard run.status == 0 else {
            let text = (try? String(contentsOfFile: path("openssl-loop.stderr"), encoding: .utf8)) ?? ""
            throw Spawn.Failure(description: "openssl loop for \(work) exited \(run.status): \(text.suffix(2000))")
        }
        let rate = Double(count) / run.seconds
        let measurement = Measurement(
            work: work, by: "openssl smime shell loop", count: count, value: rate, unit: "files/s",
            hardwareFraction: limitPerCore.map { rate / $0 }, peakMB: nil,
            command: "for f in …; do \(body); done")
        report.measurements.append(measurement)
        say("\(work), openssl smime loop over \(count) files: \(Int(rate)) files/s")
        return measurement
    }

    mutating func inProcess(
        _ work: String, by: String, count: Int, seconds: Double, limitPerCore: Double?, command: String
    ) -> Measurement {
        let rate = Double(count) / seconds
        let measurement = Measurement(
            work: work, by: by, count: count, value: rate, unit: "files/s",
            hardwareFraction: limitPerCore.map { rate / $0 },
            peakMB: nil, command: command)
        report.measurements.append(measurement)
        say("\(work), \(by) over \(count) files: \(Int(rate)) files/s")
        return measurement
    }

    func displayed(_ command: [String]) -> String {
        command.map { argument in
            var text = argument.replacingOccurrences(of: scratch.path + "/", with: "$TMP/")
            text = text.replacingOccurrences(of: repository.path + "/", with: "")
            return text.contains(" ") ? "'\(text)'" : text
        }.joined(separator: " ")
    }
}
