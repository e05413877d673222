import AASATestSupport
import Foundation
import Testing

/// A batch or a prompt cut short by a signal (issue #15): every file is either old or new with
/// its owner and mode, no temporary is left after SIGINT or SIGTERM, and a terminal gets its
/// echo back.
@Suite("interrupted batches and prompts", .serialized)
struct InterruptTests {
    static let fileCount = 2_000
    static let jobs = 2

    struct Tree {
        var directory: URL
        var names: [String]
        var original: Data
        var converted: Data
    }

    /// `fileCount` copies of the signed example in `dir/site`, in alternating modes (0640,
    /// 0600) and, when the tests run as root, every seventh owned by nobody:nogroup.
    func makeTree(in dir: URL) throws -> Tree {
        let original = try contents(Repository.examples.appendingPathComponent("apple-app-site-association.p7m"))
        let reference = dir.child("reference.json")
        let convert = CLI.run(
            [
                "convert", Repository.examples.appendingPathComponent("apple-app-site-association.p7m").path, "-o",
                reference.path,
            ] + Fixture.testTrust)
        try #require(convert.status == 0, "\(convert)")
        let site = dir.child("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        var names: [String] = []
        for index in 0..<Self.fileCount {
            let name = String(format: "%04d.p7m", index)
            let path = site.child(name).path
            try original.write(to: site.child(name))
            #expect(chmod(path, index % 2 == 0 ? 0o640 : 0o600) == 0)
            if geteuid() == 0 && index % 7 == 0 { #expect(chown(path, 65534, 65534) == 0) }
            names.append(name)
        }
        return Tree(directory: site, names: names, original: original, converted: try contents(reference))
    }

    /// Starts `convert --in-place` on the tree, sends `signal` a random 0-30 ms after the first
    /// file has been replaced, at a moment a temporary exists, and waits for the process.
    func interruptedConversion(of tree: Tree, with signal: Int32) throws -> Process {
        // With no signal blocked, as a shell starts it: the test runner's threads block most
        // signals, a child inherits that mask, and a blocked SIGINT would never arrive at all.
        // Perl (Debian's essential perl-base) clears the mask, then execs aasa.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        process.arguments =
            [
                "-MPOSIX", "-e", "sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die; exec {$ARGV[0]} @ARGV or die",
                CLI.executable.path, "convert", tree.directory.path, "--in-place", "--jobs", "\(Self.jobs)",
            ]
            + Fixture.testTrust
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let first = tree.directory.child(tree.names[0])
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline {
            if let data = try? contents(first), data != tree.original { break }
            usleep(1_000)
        }
        // A random point later, and then while a temporary exists: the moment a writer that
        // does not clean up would leave one behind.
        usleep(UInt32.random(in: 0...30_000))
        while process.isRunning && Date() < deadline && leftoverTemporaries(in: tree.directory).isEmpty {}
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process
    }

    @Test(
        "a 2,000-file --in-place batch killed part-way: each file old or new, owner and mode kept, no temporaries after SIGINT and SIGTERM",
        arguments: [SIGINT, SIGTERM, SIGKILL])
    func killedInPlaceBatch(signal: Int32) throws {
        try withTemporaryDirectory { dir in
            let tree = try makeTree(in: dir)
            try #require(tree.original != tree.converted)
            let process = try interruptedConversion(of: tree, with: signal)
            try #require(
                process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
                "the batch must end by the signal, not finish first: \(process.terminationReason) \(process.terminationStatus)"
            )
            var old = 0, new = 0
            for (index, name) in tree.names.enumerated() {
                let path = tree.directory.child(name).path
                let data = try contents(tree.directory.child(name))
                if data == tree.original {
                    old += 1
                } else if data == tree.converted {
                    new += 1
                } else {
                    Issue.record("\(name) is neither the old nor the new file (\(data.count) bytes)")
                }
                var info = stat()
                try #require(stat(path, &info) == 0)
                #expect(info.st_mode & 0o7777 == (index % 2 == 0 ? 0o640 : 0o600), "\(name): mode")
                if geteuid() == 0 && index % 7 == 0 {
                    #expect(info.st_uid == 65534 && info.st_gid == 65534, "\(name): owner")
                }
            }
            #expect(old + new == Self.fileCount)
            #expect(new > 0 && old > 0, "the signal came mid-batch: \(new) new, \(old) old")
            let temporaries = leftoverTemporaries(in: tree.directory)
            if signal == SIGKILL {
                // Nothing can run on SIGKILL: at most one temporary per worker remains.
                #expect(temporaries.count <= Self.jobs, "\(temporaries)")
            } else {
                #expect(temporaries.isEmpty, "temporaries left after signal \(signal): \(temporaries)")
            }
        }
    }

    /// util-linux `script` gives the command a pseudo-terminal; the shell inside it prints the
    /// terminal's echo setting after `aasa` has been interrupted at the passphrase prompt.
    @Test(
        "Ctrl-C (SIGINT) at the passphrase prompt leaves the terminal with echo on",
        .enabled(if: FileManager.default.isExecutableFile(atPath: Executables.script.path), "needs util-linux script"))
    func promptInterrupted() throws {
        try withTemporaryDirectory { dir in
            let json = Repository.examples.appendingPathComponent("apple-app-site-association.json").path
            let aasa = [
                CLI.executable.path, "sign", json, "-o", dir.child("out.p7m").path, "--key",
                CLI.cert("leaf-rsa.enc.key"), "--cert", CLI.cert("leaf-rsa.pem"),
            ].map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            let marker = dir.child("prompted")
            // aasa runs in the foreground; a background subshell waits for the prompt (the
            // process has the terminal in no-echo mode), then sends SIGINT to aasa alone.
            let shell = """
                stty echo
                ( for i in $(seq 200); do
                    pid=$(pgrep -n -f 'leaf-rsa.enc.key') && stty -a </dev/tty 2>/dev/null | grep -q -- '-echo ' && break
                    sleep 0.05
                  done
                  stty -a </dev/tty | grep -q -- '-echo ' && touch '\(marker.path)'
                  kill -INT "$pid" ) &
                \(aasa)
                echo "status=$?"
                wait
                stty -a | grep -o -- '-*echo ' | head -1
                """
            // script's standard input is a FIFO held open and never written: at the end of its
            // input (/dev/null) script would send EOF to the terminal, and the prompt would read
            // that instead of waiting for the signal.
            let fifo = dir.child("stdin.fifo").path
            let run = ProcessRunner.run(
                URL(fileURLWithPath: "/bin/sh"),
                [
                    "-c", "mkfifo \"$2\" && exec 3<>\"$2\" && exec \"$0\" -qec \"$1\" /dev/null <&3",
                    Executables.script.path, shell, fifo,
                ], timeout: 60)
            let output = run.stdoutText
            #expect(fileExists(marker), "the prompt never turned echo off: \(output.debugDescription)")
            #expect(output.contains("status=130"), "aasa must end by SIGINT: \(output.debugDescription)")
            #expect(
                output.split(whereSeparator: \.isNewline).last?.trimmingCharacters(in: .whitespaces) == "echo",
                "echo is off after the interruption: \(output.debugDescription)")
            #expect(!fileExists(dir.child("out.p7m")))
        }
    }
}
