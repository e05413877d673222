import Foundation

extension SignedData {
    /// Parses a message whose encoding is found by ``FileKindDetector``.
    /// - Throws: ``AASAError`` `.notSignedData` for input that is not PKCS#7 at all, or
    ///   `.malformedMessage`.
    public convenience init(data: Data) throws {
        guard let encoding = FileKindDetector.pkcs7Encoding(of: data) else {
            throw AASAError(.notSignedData, "not a PKCS#7 message (\(FileKindDetector.detect(data).kind.rawValue))")
        }
        try self.init(data: data, encoding: encoding)
    }
}
