import Foundation

/// What the machine can do, from `openssl speed`: the primitive operations every signed file
/// costs at least, per core.
struct Hardware: Encodable {
    var rsa2048SignPerSecond: Double
    var rsa2048VerifyPerSecond: Double
    var p256SignPerSecond: Double
    var p256VerifyPerSecond: Double
    /// SHA-256 throughput on 8 KB blocks, bytes per second.
    var sha256BytesPerSecond: Double
    var command: String

    /// `openssl speed -seconds N rsa2048` alone: RSA-2048 sign/s on one core, measured right
    /// before the figure it is compared with (the machine's load changes).
    static func rsaSignRate(seconds: Int, processes: Int = 1) throws -> Double {
        try rsaRates(seconds: seconds, processes: processes).sign
    }

    /// `openssl speed -seconds N [-multi P] rsa2048`: RSA-2048 sign/s and verify/s of `processes`
    /// processes together.
    static func rsaRates(seconds: Int, processes: Int = 1) throws -> (sign: Double, verify: Double) {
        let multi = processes > 1 ? ["-multi", String(processes)] : []
        let text = try Spawn.output(["openssl", "speed", "-seconds", String(seconds)] + multi + ["rsa2048"])
        for line in text.split(separator: "\n").reversed()
        where line.trimmingCharacters(in: .whitespaces).hasPrefix("rsa 2048 bits") {
            let values = line.split(separator: " ").compactMap { Double($0) }
            if values.count >= 2 { return (values[values.count - 2], values[values.count - 1]) }
        }
        throw Spawn.Failure(description: "cannot read the output of openssl speed rsa2048:\n\(text)")
    }

    /// Runs `openssl speed -seconds N rsa2048 ecdsap256 sha256` and reads its tables.
    static func measure(seconds: Int) throws -> Hardware {
        let arguments = ["openssl", "speed", "-seconds", String(seconds), "rsa2048", "ecdsap256", "sha256"]
        let text = try Spawn.output(arguments)
        func numbers(_ line: Substring) -> [Double] {
            line.split(separator: " ").compactMap { field in
                var value = field
                var scale = 1.0
                if value.hasSuffix("k") {
                    value = value.dropLast()
                    scale = 1000
                }
                return Double(value).map { $0 * scale }
            }
        }
        var hardware = Hardware(
            rsa2048SignPerSecond: .nan, rsa2048VerifyPerSecond: .nan, p256SignPerSecond: .nan,
            p256VerifyPerSecond: .nan, sha256BytesPerSecond: .nan, command: arguments.joined(separator: " "))
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("rsa 2048 bits") {
                // "rsa 2048 bits 0.000279s 0.000017s 3583.2 60304.4": the rates are the last two.
                let values = numbers(line)
                if values.count >= 2 {
                    hardware.rsa2048SignPerSecond = values[values.count - 2]
                    hardware.rsa2048VerifyPerSecond = values[values.count - 1]
                }
            } else if trimmed.hasPrefix("256 bits ecdsa (nistp256)") {
                let values = numbers(line)
                if values.count >= 2 {
                    hardware.p256SignPerSecond = values[values.count - 2]
                    hardware.p256VerifyPerSecond = values[values.count - 1]
                }
            } else if trimmed.hasPrefix("sha256 ") {
                // 16, 64, 256, 1024, 8192, 16384-byte blocks, in 1000s of bytes per second.
                let values = numbers(line)
                if values.count >= 5 { hardware.sha256BytesPerSecond = values[4] }
            }
        }
        guard hardware.rsa2048SignPerSecond.isFinite, hardware.p256SignPerSecond.isFinite,
            hardware.sha256BytesPerSecond.isFinite
        else {
            throw Spawn.Failure(description: "cannot read the output of \(hardware.command):\n\(text)")
        }
        return hardware
    }

    /// The most files per second one core can sign with RSA-2048: one signature and the digest
    /// of the content.
    func rsaSignLimit(bytes: Double) -> Double { 1 / (1 / rsa2048SignPerSecond + bytes / sha256BytesPerSecond) }

    func p256SignLimit(bytes: Double) -> Double { 1 / (1 / p256SignPerSecond + bytes / sha256BytesPerSecond) }

    /// The most files per second one core can verify when the chain is already known: one
    /// RSA-2048 verification and the digest of the content.
    func rsaVerifyLimit(bytes: Double) -> Double { 1 / (1 / rsa2048VerifyPerSecond + bytes / sha256BytesPerSecond) }
}
