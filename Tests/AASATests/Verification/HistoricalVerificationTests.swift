import AASA
import AASATestSupport
import Foundation
import Testing

/// `--historical` (``VerificationOptions/historical``): a test PKI with exact dates, made with
/// `openssl ca -startdate/-enddate` at test time, and an injected ``HistoricalTrustStore`` whose
/// trust ranges are the test's own; then the corpus against the compiled-in Mozilla store.
@Suite("Historical verification")
struct HistoricalVerificationTests {
    // MARK: A test PKI with fixed dates

    /// A root, an intermediate and a leaf for example.com, each valid for the dates given.
    struct DatedPKI {
        let directory: ScratchDirectory
        var root: X509Certificate
        var chainPath: String  // the intermediate, PEM

        static let config = """
            [ ca ]
            default_ca = dated
            [ dated ]
            database = index.txt
            new_certs_dir = .
            serial = serial
            default_md = sha256
            policy = anything
            unique_subject = no
            [ anything ]
            commonName = supplied
            [ root ]
            basicConstraints = critical,CA:true
            keyUsage = critical,keyCertSign,cRLSign
            subjectKeyIdentifier = hash
            [ intermediate ]
            basicConstraints = critical,CA:true,pathlen:0
            keyUsage = critical,keyCertSign,cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            [ leaf ]
            basicConstraints = CA:false
            keyUsage = critical,digitalSignature,keyEncipherment
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:example.com
            authorityKeyIdentifier = keyid

            """

        /// `validity` are `openssl ca` dates (YYYYMMDDHHMMSSZ) for root, intermediate and leaf.
        init(
            root rootDates: (String, String), intermediate: (String, String), leaf: (String, String),
            leafBits: Int = 2048, in directory: ScratchDirectory
        ) throws {
            self.directory = directory
            try directory.write(Data(Self.config.utf8), to: "ca.cnf")
            try directory.write(Data(), to: "index.txt")
            try directory.write(Data("1000\n".utf8), to: "serial")
            func request(_ name: String, bits: Int) throws {
                try OpenSSL.succeed(
                    [
                        "req", "-new", "-newkey", "rsa:\(bits)", "-nodes", "-keyout", "\(name).key", "-subj",
                        "/CN=Historical Test \(name)", "-out", "\(name).csr",
                    ], in: directory)
            }
            func issue(_ name: String, by issuer: String?, _ dates: (String, String), extensions: String) throws {
                var arguments = [
                    "ca", "-batch", "-notext", "-config", "ca.cnf", "-in", "\(name).csr", "-out", "\(name).pem",
                    "-startdate", dates.0, "-enddate", dates.1, "-extensions", extensions,
                ]
                if let issuer {
                    arguments += ["-cert", "\(issuer).pem", "-keyfile", "\(issuer).key"]
                } else {
                    arguments += ["-selfsign", "-keyfile", "\(name).key"]
                }
                try OpenSSL.succeed(arguments, in: directory)
            }
            try request("root", bits: 2048)
            try issue("root", by: nil, rootDates, extensions: "root")
            try request("intermediate", bits: 2048)
            try issue("intermediate", by: "root", intermediate, extensions: "intermediate")
            try request("leaf", bits: leafBits)
            try issue("leaf", by: "intermediate", leaf, extensions: "leaf")
            root = try X509Certificate.load(from: directory.read("root.pem"))[0]
            chainPath = directory.file("intermediate.pem").path
        }

        /// The content signed as the AASA recipe does (`-noattr`), or with signed attributes
        /// (which carry signingTime: now).
        func sign(_ content: Data = Data(#"{"applinks":{"apps":[],"details":[]}}"#.utf8), attributes: Bool = false)
            throws -> Data
        {
            var request = OpenSSL.SignRequest()
            request.key = directory.file("leaf.key").path
            request.signer = directory.file("leaf.pem").path
            request.certfile = chainPath
            request.noattr = !attributes
            return try OpenSSL.sign(content, request, in: directory)
        }

        /// A store that holds only this PKI's root, trusted over `periods`.
        func store(_ periods: [TrustPeriod]) -> HistoricalTrustStore {
            HistoricalTrustStore(
                name: "the test store", roots: [HistoricalRoot(certificate: root, periods: periods)],
                snapshots: periods.map(\.from))
        }
    }

    static func date(_ text: String) -> Date {
        guard let date = ISO8601DateFormatter().date(from: text) else { fatalError("not a date: \(text)") }
        return date
    }

    static func period(_ from: String, _ lastSeen: String, _ removedBy: String?) -> TrustPeriod {
        TrustPeriod(
            from: date(from + "T00:00:00Z"), lastSeen: date(lastSeen + "T00:00:00Z"),
            removedBy: removedBy.map { date($0 + "T00:00:00Z") })
    }

    /// A verifier that trusts nothing today (so every chain fails as the corpus files do) and
    /// checks historically against `store`.
    static func verifier(_ store: HistoricalTrustStore?, at time: Date? = nil) throws -> Verifier {
        var options = VerificationOptions(time: time)
        options.historical = store
        return Verifier(trust: try TrustStore(TrustConfiguration(useSystemRoots: false)), options: options)
    }

    static func validity(_ result: VerificationResult) -> HistoricalValidity? {
        if case .validThen(let validity) = result.verdict { return validity }
        return nil
    }

    /// The 2015 PKI: root 2010–2040, intermediate 2014–2030, leaf 2015-03-01 .. 2016-01-01.
    static func pki2015(in directory: ScratchDirectory, leafBits: Int = 2048) throws -> DatedPKI {
        try DatedPKI(
            root: ("20100101000000Z", "20400101000000Z"), intermediate: ("20140101000000Z", "20300101000000Z"),
            leaf: ("20150301000000Z", "20160101000000Z"), leafBits: leafBits, in: directory)
    }

    // MARK: Boundaries of the window

    @Test("a window from A to B: valid-then at A and at B, refused at A-1s and B+1s (root removed by B+1s)")
    func trustRangeBoundaries() throws {
        try withScratchDirectory { directory in
            let pki = try Self.pki2015(in: directory)
            let signed = try pki.sign()
            // Trusted from 2014-04-22, gone by 2015-10-28: B is 2015-10-27T23:59:59Z.
            let store = pki.store([Self.period("2014-04-22", "2015-04-27", "2015-10-28")])
            let a = Self.date("2015-03-01T00:00:00Z"), b = Self.date("2015-10-27T23:59:59Z")

            let unpinned = try Self.verifier(store).verify(signed)
            let window = try #require(Self.validity(unpinned), "\(unpinned.verdict)").window
            #expect(window == a...b)

            for (time, accepted) in [
                (a, true), (b, true), (a.addingTimeInterval(-1), false), (b.addingTimeInterval(1), false),
            ] {
                let result = try Self.verifier(store, at: time).verify(signed)
                #expect(result.verdict.isValidThen == accepted, "at \(time): \(result.verdict)")
                #expect((result.content != nil) == accepted)
                if accepted { #expect(Self.validity(result)?.timeSource == .requested) }
            }
        }
    }

    @Test("the end of the window is the last second before the signer's notAfter (OpenSSL: expired at notAfter)")
    func validityBoundaries() throws {
        try withScratchDirectory { directory in
            let pki = try Self.pki2015(in: directory)
            let signed = try pki.sign()
            let store = pki.store([Self.period("2014-04-22", "2026-02-11", nil)])
            let unpinned = try Self.verifier(store).verify(signed)
            let window = try #require(Self.validity(unpinned), "\(unpinned.verdict)").window
            let last = Self.date("2015-12-31T23:59:59Z")
            #expect(window == Self.date("2015-03-01T00:00:00Z")...last)
            #expect(try Self.verifier(store, at: last).verify(signed).verdict.isValidThen)
            let after = try Self.verifier(store, at: last.addingTimeInterval(1)).verify(signed)
            #expect(after.verdict.code == "expired", "\(after.verdict)")
            #expect(after.content == nil)
        }
    }

    // MARK: The store through time

    @Test("a root trusted only in an earlier snapshot than the chain's validity: refused, saying when it was held")
    func rootTrustedOnlyEarlier() throws {
        try withScratchDirectory { directory in
            let pki = try Self.pki2015(in: directory)
            let store = pki.store([Self.period("2014-04-22", "2014-09-04", "2015-02-25")])
            let result = try Self.verifier(store).verify(try pki.sign())
            #expect(result.verdict.code == "untrusted", "\(result.verdict)")
            #expect(result.content == nil)
            let reason = result.verdict.reason ?? ""
            #expect(reason.contains("no time when the chain was valid and its root trusted"), "\(reason)")
            #expect(!reason.contains("--") && result.remedy == nil, "\(reason)")
            #expect(reason.contains("from 2014-04-22 to 2014-09-04 (gone by 2015-02-25)"), "\(reason)")
        }
    }

    @Test("a root removed between the signing window and today: valid-then, and what fails today says so")
    func rootRemovedSince() throws {
        try withScratchDirectory { directory in
            let pki = try Self.pki2015(in: directory)
            let store = pki.store([Self.period("2014-04-22", "2020-12-16", "2021-01-22")])
            let result = try Self.verifier(store).verify(try pki.sign())
            let validity = try #require(Self.validity(result), "\(result.verdict)")
            #expect(validity.window == Self.date("2015-03-01T00:00:00Z")...Self.date("2015-12-31T23:59:59Z"))
            #expect(validity.timeSource == .windowStart)
            #expect(validity.root == pki.root.info)
            #expect(validity.failsToday.contains { $0.contains("removed from the test store by 2021-01-22") })
            #expect(
                validity.failsToday.contains { $0.contains("the signer certificate expired at 2016-01-01T00:00:00Z") })
            #expect(result.verdict.isValid == false)
            #expect(result.isAccepted)
        }
    }

    @Test("certificates whose validity periods never overlap: no window, refused, the reason says so")
    func noOverlap() throws {
        try withScratchDirectory { directory in
            // The leaf expires before its intermediate begins.
            let pki = try DatedPKI(
                root: ("20100101000000Z", "20400101000000Z"), intermediate: ("20160101000000Z", "20300101000000Z"),
                leaf: ("20150301000000Z", "20151231000000Z"), in: directory)
            let store = pki.store([Self.period("2014-04-22", "2026-02-11", nil)])
            let result = try Self.verifier(store).verify(try pki.sign())
            #expect(result.verdict.code == "untrusted", "\(result.verdict)")
            #expect(result.verdict.reason?.contains("never overlap") == true, "\(result.verdict)")
            #expect(result.content == nil)
        }
    }

    // MARK: What never relaxes

    @Test("a tampered file is still tampered in the historical mode")
    func tamperedStaysTampered() throws {
        try withScratchDirectory { directory in
            let pki = try Self.pki2015(in: directory)
            var signed = try pki.sign(Data(#"{"applinks":{"apps":[],"details":[{"appID":"A.b"}]}}"#.utf8))
            let store = pki.store([Self.period("2014-04-22", "2026-02-11", nil)])
            #expect(try Self.verifier(store).verify(signed).verdict.isValidThen)
            let target = try #require(signed.range(of: Data("A.b".utf8)))
            signed[target.lowerBound] = UInt8(ascii: "B")
            let result = try Self.verifier(store).verify(signed)
            #expect(result.verdict.code == "tampered", "\(result.verdict)")
            #expect(result.content == nil)
        }
    }

    @Test("a weak key is still refused in the historical mode")
    func weakKeyStaysRefused() throws {
        try withScratchDirectory { directory in
            let pki = try Self.pki2015(in: directory, leafBits: 768)
            let store = pki.store([Self.period("2014-04-22", "2026-02-11", nil)])
            let result = try Self.verifier(store).verify(try pki.sign())
            #expect(result.verdict.code == "weak-algorithm", "\(result.verdict)")
            #expect(result.content == nil)
        }
    }

    @Test("without the mode, the same file is never valid-then, and the refusal names the mode")
    func offByDefault() throws {
        try withScratchDirectory { directory in
            let pki = try Self.pki2015(in: directory)
            let result = try Self.verifier(nil).verify(try pki.sign())
            #expect(result.verdict.code == "untrusted", "\(result.verdict)")
            #expect(result.content == nil)
            #expect(result.suggestsHistoricalMode)
            #expect(result.remedy == .historicalMode)
            #expect(result.refusal.contains("the historical mode checks it as it was when signed"))
        }
    }

    // MARK: signingTime

    @Test("a signed signingTime inside the window is the time used, and the report says so")
    func signingTimeInsideWindow() throws {
        try withScratchDirectory { directory in
            // Valid around now (openssl writes signingTime = now), the root trusted throughout.
            let now = Date()
            let pki = try DatedPKI(
                root: (Self.stamp(now, days: -400), Self.stamp(now, days: 400)),
                intermediate: (Self.stamp(now, days: -300), Self.stamp(now, days: 300)),
                leaf: (Self.stamp(now, days: -30), Self.stamp(now, days: 30)), in: directory)
            let signed = try pki.sign(attributes: true)
            let store = pki.store([
                TrustPeriod(from: now.addingTimeInterval(-400 * 86_400), lastSeen: now, removedBy: nil)
            ])
            let result = try Self.verifier(store).verify(signed)
            let validity = try #require(Self.validity(result), "\(result.verdict)")
            let signingTime = try #require(validity.signingTime)
            #expect(abs(signingTime.timeIntervalSince(now)) < 600)
            #expect(validity.timeSource == .signingTime)
            #expect(validity.checkedAt == signingTime)
            #expect(result.checkedAt == signingTime)
            #expect(validity.timeDescription.contains("the signed signingTime"))
        }
    }

    @Test("a signed signingTime outside the window is not used: the window's start is, and the report says why")
    func signingTimeOutsideWindow() throws {
        try withScratchDirectory { directory in
            let now = Date()
            let pki = try DatedPKI(
                root: (Self.stamp(now, days: -400), Self.stamp(now, days: 400)),
                intermediate: (Self.stamp(now, days: -300), Self.stamp(now, days: 300)),
                leaf: (Self.stamp(now, days: -30), Self.stamp(now, days: 30)), in: directory)
            let signed = try pki.sign(attributes: true)
            // The root left the store ten days ago: the window ends before the signingTime (now).
            let store = pki.store([
                TrustPeriod(
                    from: now.addingTimeInterval(-400 * 86_400), lastSeen: now.addingTimeInterval(-20 * 86_400),
                    removedBy: now.addingTimeInterval(-10 * 86_400))
            ])
            let result = try Self.verifier(store).verify(signed)
            let validity = try #require(Self.validity(result), "\(result.verdict)")
            #expect(validity.signingTime != nil)
            #expect(validity.timeSource == .windowStart)
            #expect(validity.checkedAt == validity.window.lowerBound)
            #expect(validity.timeDescription.contains("lies outside the window, so was not used"))
        }
    }

    static func stamp(_ date: Date, days: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        let seconds = (date.timeIntervalSince1970 + TimeInterval(days) * 86_400).rounded(.down)
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    // MARK: The corpus against Mozilla's store

    @Test("the compiled-in Mozilla store: 289 roots, 53 snapshots, GeoTrust Global CA gone by 2021-01-22")
    func mozillaStore() throws {
        let store = try HistoricalTrustStore.mozilla
        #expect(store.roots.count == 289)
        #expect(store.snapshots.count == 53)
        // The fingerprints the store computes from the bytes (it parses a root only when a chain
        // reaches it) are the parsed certificates' own.
        let mismatched = try store.roots.filter { try $0.certificate().info.sha256Fingerprint != $0.sha256Fingerprint }
        #expect(mismatched.isEmpty, "\(mismatched.map(\.sha256Fingerprint))")
        let geoTrust = try #require(
            store.root(
                withFingerprint:
                    "FF:85:6A:2D:25:1D:CD:88:D3:66:56:F4:50:12:67:98:CF:AB:AA:DE:40:79:9C:72:2D:E4:D2:B5:DB:36:A7:3A"))
        #expect(try geoTrust.certificate().info.subject.contains("GeoTrust Global CA"))
        #expect(geoTrust.periods == [Self.period("2014-04-22", "2020-12-16", "2021-01-22")])
    }

    @Test(
        "the two 2015 artsy files are valid-then under GeoTrust Global CA; Handbid is refused naming its missing intermediate"
    )
    func corpus() throws {
        let names = RealWorldCorpus.signedNames
        #expect(names.count == 3)
        var seen = 0
        for name in names {
            let data = try Data(contentsOf: Paths.realSigned.appendingPathComponent(name))
            let result = try Self.verifier(try HistoricalTrustStore.mozilla).verify(data)
            if name.hasPrefix("artsy") {
                let validity = try #require(Self.validity(result), "\(name): \(result.verdict)")
                #expect(validity.root.subject.contains("GeoTrust Global CA"))
                #expect(validity.window.contains(Self.date("2015-09-15T00:00:00Z")))
                #expect(validity.failsToday.contains { $0.contains("removed from Mozilla's root store by 2021-01-22") })
                #expect(result.content != nil)
                seen += 1
            } else {
                #expect(result.verdict.code == "untrusted", "\(name): \(result.verdict)")
                let reason = result.verdict.reason ?? ""
                #expect(reason.contains("RapidSSL SHA256 CA - G3"), "\(reason)")
                #expect(reason.contains("not among the intermediates given"), "\(reason)")
                // The remedy is a value (the CLI words it with --intermediates FILE); no message
                // of the library names a command-line flag.
                #expect(result.remedy == .supplyIssuer)
                #expect(result.refusal.hasSuffix("; \(VerificationRemedy.supplyIssuer.description)"))
                #expect(!result.refusal.contains("--"), "\(result.refusal)")
                #expect(result.content == nil)
                seen += 1
            }
        }
        #expect(seen == 3)
    }
}
