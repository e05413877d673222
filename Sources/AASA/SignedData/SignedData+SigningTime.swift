internal import CAASACrypto
import Foundation

extension SignedData {
    /// The signingTime signed attribute of SignerInfo `index`, when it has one. The verification
    /// policy has already checked its form (docs/security.md, rule 2) when the file verifies.
    public func signingTime(ofSignerInfo index: Int) -> Date? {
        var seconds: Int64 = 0
        guard index >= 0, caasa_pkcs7_signing_time(pointer, index, &seconds) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
