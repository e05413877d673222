import AASATestSupport
import Foundation
import Testing

/// `--historical` on the command line: the journey of issue #25 on the real signed files of the
/// corpus (two 2015 artsy files under GeoTrust Global CA, the Handbid file without its
/// intermediate), against the compiled-in Mozilla store.
@Suite("--historical")
struct HistoricalCommandTests {
    static let artsy = [
        "artsy_artsy-eigen-web-association_aasa-20150915-a.p7m",
        "artsy_artsy-eigen-web-association_aasa-20150915-b.p7m",
    ]
    static let handbid = "Handbid_Handbid-WordPress_aasa-smime-format.p7m"

    @Test("convert DIR --historical: both artsy files written with a note, Handbid refused naming its intermediate")
    func convertCorpus() throws {
        try withTemporaryDirectory { directory in
            let out = directory.child("plain")
            let run = CLI.run(["convert", RealWorldCorpus.signedFolder.path, "--out-dir", out.path, "--historical"])
            #expect(run.status == 1, "\(run)")
            let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
            #expect(written.count == 2, "\(written)")
            for name in Self.artsy {
                let expected = name.replacingOccurrences(of: ".p7m", with: "")
                #expect(written.contains { $0.hasPrefix(expected) }, "\(written)")
            }
            #expect(
                run.stderr.contains("verified in the historical mode (valid-then: valid when signed, not today)"),
                "\(run)")
            #expect(run.stderr.contains("GeoTrust Global CA"), "\(run)")
            #expect(run.stderr.contains("RapidSSL SHA256 CA - G3"), "\(run)")
            #expect(run.stderr.contains("--intermediates FILE (or --fetch-issuers)"), "\(run)")
        }
    }

    @Test("without --historical, the refusal names the mode")
    func refusalNamesTheMode() throws {
        try withTemporaryDirectory { directory in
            let run = CLI.run([
                "convert", CLI.realSigned(Self.artsy[0]), "-o", directory.child("out.json").path,
            ])
            #expect(run.status == 1, "\(run)")
            #expect(run.stderr.contains("--historical checks it as it was when signed"), "\(run)")
            #expect(!fileExists(directory.child("out.json")))
        }
    }

    @Test("verify --historical: valid-then exits 0 and reports window, time, root and what fails today")
    func verifyValidThen() throws {
        let run = CLI.run(["verify", CLI.realSigned(Self.artsy[0]), "--historical"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdoutText.contains("valid-then"), "\(run)")
        #expect(run.stdoutText.contains("  window:     "), "\(run)")
        #expect(run.stdoutText.contains("the start of the window (the file carries no signingTime)"), "\(run)")
        #expect(run.stdoutText.contains("GeoTrust Global CA"), "\(run)")
        #expect(run.stdoutText.contains("gone by 2021-01-22"), "\(run)")
        #expect(run.stdoutText.contains("fails today:"), "\(run)")
        // The same file without the mode fails, and says which flag would check it.
        let plain = CLI.run(["verify", CLI.realSigned(Self.artsy[0])])
        #expect(plain.status == 1, "\(plain)")
        #expect(plain.stdoutText.contains("--historical"), "\(plain)")
    }

    @Test("verify --historical --at: the store of that date; refused outside the window")
    func verifyAt() throws {
        let inside = CLI.run(["verify", CLI.realSigned(Self.artsy[0]), "--historical", "--at", "2015-09-15T00:00:00Z"])
        #expect(inside.status == 0, "\(inside)")
        #expect(inside.stdoutText.contains("as asked"), "\(inside)")
        let after = CLI.run(["verify", CLI.realSigned(Self.artsy[0]), "--historical", "--at", "2016-06-01"])
        #expect(after.status == 1, "\(after)")
        #expect(after.stdoutText.contains("expired"), "\(after)")
    }

    @Test(
        "check --historical: the signature line is the historical verdict, not broken for time, next step uses the mode"
    )
    func checkLegacyFile() throws {
        let run = CLI.run(["check", CLI.realSigned(Self.artsy[0]), "--historical"])
        #expect(run.stdoutText.contains("signature: valid-then"), "\(run)")
        #expect(!run.stdoutText.contains("broken"), "\(run)")
        #expect(run.status == 0, "\(run)")
        let plain = CLI.run(["check", CLI.realSigned(Self.artsy[0])])
        #expect(plain.stdoutText.contains("--historical"), "\(plain)")
    }

    /// One `--at` (``CheckTimeOptions``) for every command that checks certificates: inspect's
    /// historical check takes it too, as the store of that date. The artsy signer's notAfter is
    /// 2016-02-15T23:59:59Z: valid-then inside its window, expired from then on.
    @Test("inspect --historical --at: the check at that time; --at alone is a usage error")
    func inspectTakesAt() throws {
        let file = CLI.realSigned(Self.artsy[0])
        let inside = CLI.run(["inspect", file, "--historical", "--at", "2015-09-15"])
        #expect(inside.status == 0, "\(inside)")
        #expect(inside.stdoutText.contains("against Mozilla's root store through time): valid-then"), "\(inside)")
        let after = CLI.run(["inspect", file, "--historical", "--at", "2016-02-16T00:00:00Z"])
        #expect(after.stdoutText.contains("against Mozilla's root store through time): expired"), "\(after)")
        // OpenSSL counts a certificate expired at its notAfter second itself: the last second
        // of the window is the one before.
        let last = CLI.run(["inspect", file, "--historical", "--at", "2016-02-15T23:59:58Z"])
        #expect(last.stdoutText.contains("): valid-then"), "the window's last second: \(last)")
        let notAfter = CLI.run(["inspect", file, "--historical", "--at", "2016-02-15T23:59:59Z"])
        #expect(notAfter.stdoutText.contains("): expired"), "the signer's notAfter: \(notAfter)")
        let alone = CLI.run(["inspect", file, "--at", "2015-09-15"])
        #expect(alone.status == 64, "\(alone)")
        #expect(alone.stderr.contains("--at goes with --historical here"), "\(alone)")
        for command in ["verify", "extract", "check", "convert", "inspect", "audit"] {
            let help = CLI.run([command, "--help"])
            #expect(
                help.stdoutText.contains("Check certificates at this time instead of now"), "\(command): one --at")
        }
    }
}
