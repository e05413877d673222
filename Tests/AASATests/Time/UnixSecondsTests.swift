import AASA
import Foundation
import Testing

/// Issue #24: a check time past `Int64.max` seconds (`--at 9223372036854775807`, or any date a
/// library user gives) ended the process with SIGILL converting to OpenSSL's 64-bit seconds.
@Suite("Unix seconds of a check time")
struct UnixSecondsTests {
    @Test("seconds are rounded down and taken into the years 0000 to 9999; NaN and infinities do not trap")
    func clamped() {
        #expect(UnixSeconds.of(Date(timeIntervalSince1970: 1_735_689_600.9)) == 1_735_689_600)
        #expect(UnixSeconds.of(Date(timeIntervalSince1970: -0.5)) == -1)
        #expect(UnixSeconds.of(Date(timeIntervalSince1970: 253_402_300_799)) == 253_402_300_799)
        #expect(UnixSeconds.of(Date(timeIntervalSince1970: 253_402_300_800)) == UnixSeconds.range.upperBound)
        #expect(UnixSeconds.of(Date(timeIntervalSince1970: TimeInterval(Int64.max))) == UnixSeconds.range.upperBound)
        #expect(UnixSeconds.of(Date(timeIntervalSince1970: .infinity)) == UnixSeconds.range.upperBound)
        #expect(UnixSeconds.of(Date(timeIntervalSince1970: -1e300)) == UnixSeconds.range.lowerBound)
        #expect(UnixSeconds.of(Date(timeIntervalSince1970: .nan)) == UnixSeconds.range.lowerBound)
    }

    @Test("a file verified at Int64.max seconds is expired, not a crash")
    func verifierAtTheEndOfTime() throws {
        let signed = try PKI.identity("leaf-rsa", withChain: true).sign(
            VerifierVerdictTests.content, options: SigningOptions(binary: true))
        for time in [TimeInterval(Int64.max), 1e300] {
            let result = try PKI.verifier(VerificationOptions(time: Date(timeIntervalSince1970: time))).verify(signed)
            result.expect("expired")
        }
    }
}
