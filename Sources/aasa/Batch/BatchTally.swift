import AASA
import ArgumentParser
import Foundation

/// Counts outcomes for the summary line, in the order they were first seen.
struct BatchTally {
    private(set) var counts: [(outcome: String, count: Int)] = []
    private(set) var total = 0

    mutating func add(_ outcome: String) {
        total += 1
        if let index = counts.firstIndex(where: { $0.outcome == outcome }) {
            counts[index].count += 1
        } else {
            counts.append((outcome, 1))
        }
    }

    func count(_ outcome: String) -> Int { counts.first { $0.outcome == outcome }?.count ?? 0 }

    /// "1 tampered, 2 expired" for the given outcomes (those with a count only).
    func list(except excluded: Set<String> = []) -> String {
        counts.filter { !excluded.contains($0.outcome) }.map { "\($0.count) \($0.outcome)" }.joined(separator: ", ")
    }

    /// Writes `COMMAND: N of M files OUTCOME; …` to standard error.
    static func printSummary(_ command: String, _ parts: [String]) {
        StandardStreams.err("\(command): \(parts.filter { !$0.isEmpty }.joined(separator: "; "))\n")
    }

}
