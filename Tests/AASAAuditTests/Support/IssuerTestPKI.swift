import AASATestSupport
import Foundation

/// A PKI made at test time with the `openssl` CLI (EC P-256, valid for ten years): a root, an
/// intermediate, and signer certificates issued by the intermediate whose authorityInfoAccess
/// names a caIssuers URI of the test's choosing. Signed files made with ``signedFile(aia:name:)``
/// carry the signer's certificate only, not the intermediate's.
///
/// `directory/www` holds the intermediate as the server may send it: `int.der`, `int.pem`,
/// `int.p7c` (PKCS#7 certs-only, DER), and `big.der` (70,000 bytes, over the 64 KiB limit),
/// `junk.der` (text, no certificate).
struct IssuerTestPKI {
    let directory: URL
    var root: String { directory.appendingPathComponent("root.pem").path }
    var intermediate: String { directory.appendingPathComponent("int.pem").path }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("aasa-issuers-\(UUID().uuidString)", isDirectory: true)
        let www = directory.appendingPathComponent("www", isDirectory: true)
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try write("ca.ext", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n")
        try openssl(
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
            "root.key", "-out", "root.pem", "-days", "3650", "-subj", "/O=aasa issuer test/CN=Issuer Test Root",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        try openssl(
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "int.key",
            "-out", "int.csr", "-subj", "/O=aasa issuer test/CN=Issuer Test Intermediate")
        try openssl(
            "x509", "-req", "-in", "int.csr", "-CA", "root.pem", "-CAkey", "root.key", "-set_serial", "2",
            "-days", "3650", "-extfile", "ca.ext", "-out", "int.pem")
        try openssl("x509", "-in", "int.pem", "-outform", "DER", "-out", "www/int.der")
        try openssl("x509", "-in", "int.pem", "-out", "www/int.pem")
        try openssl("crl2pkcs7", "-nocrl", "-certfile", "int.pem", "-outform", "DER", "-out", "www/int.p7c")
        try Data(repeating: 0x41, count: 70_000).write(to: www.appendingPathComponent("big.der"))
        try Data("this is no certificate\n".utf8).write(to: www.appendingPathComponent("junk.der"))
    }

    /// A signed AASA file whose signer certificate (issued by the intermediate) names `aia` as
    /// its caIssuers URI, and which carries no other certificate.
    func signedFile(aia: String, name: String) throws -> String {
        try write(
            "\(name).ext",
            """
            basicConstraints=CA:FALSE
            keyUsage=critical,digitalSignature,keyEncipherment
            extendedKeyUsage=serverAuth
            subjectAltName=DNS:example.com
            authorityInfoAccess=caIssuers;URI:\(aia)

            """)
        try openssl(
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "\(name).key",
            "-out", "\(name).csr", "-subj", "/CN=example.com")
        try openssl(
            "x509", "-req", "-in", "\(name).csr", "-CA", "int.pem", "-CAkey", "int.key", "-set_serial",
            String(UInt32.random(in: 1000...UInt32.max)), "-days", "3650", "-extfile", "\(name).ext", "-out",
            "\(name).pem")
        return try sign(name: name, certificate: name)
    }

    /// The AASA JSON signed again, as `name`, with the certificate and key of an earlier
    /// ``signedFile(aia:name:)`` (a batch of files with one signer).
    func sign(name: String, certificate: String) throws -> String {
        let json = directory.appendingPathComponent("\(name).json")
        try Data(
            #"{"applinks":{"apps":[],"details":[{"appID":"ABCDE12345.com.example.\#(name)","paths":["*"]}]}}"#.utf8
        )
        .write(to: json)
        let output = directory.appendingPathComponent("\(name).p7m").path
        let result = ProcessRunner.run(
            Executables.aasa,
            [
                "sign", json.path, "-o", output, "--key", path("\(certificate).key"), "--cert",
                path("\(certificate).pem"),
            ])
        guard result.status == 0 else { throw Failure(description: "aasa sign: \(result)") }
        return output
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    private func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    private func openssl(_ arguments: String...) throws {
        let result = ProcessRunner.run(Executables.openssl, arguments, in: directory)
        guard result.status == 0 else { throw Failure(description: "openssl \(arguments): \(result)") }
    }
}
