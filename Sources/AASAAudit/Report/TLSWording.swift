import AASA
import Foundation

/// Words for TLS verdicts (the `AASA` library's reasons talk about signers).
enum TLSWording {
    static func reason(_ verdict: VerificationVerdict, host: String) -> String {
        // Not ISO8601DateFormatter: its ICU formatter reads time-zone files and traps when no
        // file descriptor is free (issue #15); this is the same text without a file.
        func when(_ date: Date) -> String { InternetDateTime.string(from: date) }
        func which(_ depth: Int) -> String {
            depth == 0 ? "the server certificate" : "the certificate at chain depth \(depth)"
        }
        switch verdict {
        case .valid: return "valid"
        case .expired(let certificate, let depth):
            return "\(which(depth)) \"\(certificate.subject)\" expired at \(when(certificate.notAfter))"
        case .notYetValid(let certificate, let depth):
            return "\(which(depth)) \"\(certificate.subject)\" is valid only from \(when(certificate.notBefore))"
        case .hostMismatch(_, let certificate):
            let names = certificate.dnsNames.isEmpty ? "no DNS names" : certificate.dnsNames.joined(separator: ", ")
            return "the server certificate is not valid for \(host) (it names \(names))"
        case .untrusted(let detail, let certificate, let depth):
            let subject = certificate.map { " (\(which(depth)) \"\($0.subject)\")" } ?? ""
            return "untrusted: \(detail)\(subject)"
        case .wrongPurpose(_, let certificate, let depth):
            return "\(which(depth)) \"\(certificate.subject)\" is not for TLS servers"
        default:
            return verdict.reason ?? verdict.code
        }
    }
}
