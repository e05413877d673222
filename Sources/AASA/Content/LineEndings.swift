import Foundation

/// How the lines of a text end. Signing without `-binary` turns every line end into CRLF.
public enum LineEndingStyle: String, Sendable, Codable {
    /// Every line end is CRLF: what OpenSSL's MIME canonicalisation produces.
    case crlf
    /// Every line end is a bare LF.
    case lf
    /// Both, or bare CRs.
    case mixed
    /// No line end at all (a single line).
    case none

    /// Classifies the line ends of `data`.
    public static func of(_ data: Data) -> LineEndingStyle {
        var crlf = 0, bareLF = 0, bareCR = 0
        var previous: UInt8 = 0
        for byte in data {
            if byte == 0x0A {
                if previous == 0x0D { crlf += 1 } else { bareLF += 1 }
            } else if previous == 0x0D {
                bareCR += 1
            }
            previous = byte
        }
        if previous == 0x0D { bareCR += 1 }
        switch (crlf > 0, bareLF > 0, bareCR > 0) {
        case (false, false, false): return .none
        case (true, false, false): return .crlf
        case (false, true, false): return .lf
        default: return .mixed
        }
    }

    /// `data` with every CRLF turned back into LF; lone CRs and LFs are kept.
    public static func crlfToLF(_ data: Data) -> Data {
        var out = Data()
        out.reserveCapacity(data.count)
        var pendingCR = false
        for byte in data {
            if pendingCR {
                if byte != 0x0A { out.append(0x0D) }
                pendingCR = false
            }
            if byte == 0x0D {
                pendingCR = true
            } else {
                out.append(byte)
            }
        }
        if pendingCR { out.append(0x0D) }
        return out
    }
}
