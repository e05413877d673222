import Foundation

/// Just enough RFC 5322/2045 header reading to recognise an S/MIME message.
enum MIMEHeaders {
    /// The lower-cased media type of the Content-Type header (`application/pkcs7-mime`) when
    /// `head` starts with a block of MIME headers, else nil.
    static func contentType(of head: Data) -> String? {
        // A header block starts with a header name; anything else (JSON's "{", white space)
        // is decided here, without splitting the whole head into lines.
        guard let first = head.first,
            first >= 0x80 || first == UInt8(ascii: "-")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
        else { return nil }
        var lines: [Substring] = []
        // Split the bytes at LF and drop a CR before it: Swift reads "\r\n" as one Character.
        for rawLine in head.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let bytes = rawLine.last == 0x0D ? rawLine.dropLast() : rawLine
            if bytes.isEmpty { break }  // end of the header block
            let line = Substring(String(decoding: bytes, as: UTF8.self))
            if line.first == " " || line.first == "\t" {
                guard !lines.isEmpty else { return nil }
                lines[lines.count - 1] += " " + line.drop { $0 == " " || $0 == "\t" }
            } else {
                lines.append(line)
            }
        }
        var contentType: String?
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { return nil }
            if name.lowercased() == "content-type" {
                let value = line[line.index(after: colon)...]
                contentType = value.split(separator: ";").first.map {
                    $0.trimmingCharacters(in: .whitespaces).lowercased()
                }
            }
        }
        return contentType
    }
}
