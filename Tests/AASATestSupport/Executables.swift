// The programs the tests run: the `aasa` executable under test and the `openssl` CLI oracle.
import Foundation

/// Locates the programs the tests run.
public enum Executables {
    /// The `aasa` executable under test: `$AASA_EXECUTABLE` when set (scripts/test-static.sh
    /// runs the CLI tests against the fully static binary that way; every test target honours
    /// it), otherwise the one SwiftPM built with the tests.
    public static let aasa: URL = {
        if let override = ProcessInfo.processInfo.environment["AASA_EXECUTABLE"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        for directory in productsDirectories {
            let candidate = directory.appendingPathComponent("aasa")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        fatalError("cannot find the aasa executable in \(productsDirectories.map(\.path))")
    }()

    /// The `openssl` CLI from PATH (the interop oracle; scripts/ensure-deps.sh installs it).
    public static let openssl: URL = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("openssl")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: "/usr/bin/openssl")
    }()

    /// The directories SwiftPM puts products in: on Linux the test runner is an executable in
    /// it (`Bundle.main.bundleURL`), on macOS it is the `.xctest` bundle's parent.
    static var productsDirectories: [URL] {
        var found: [URL] = []
        let bundle = Bundle.main.bundleURL
        found.append(bundle)
        found.append(bundle.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            found.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let argv0 = ProcessInfo.processInfo.arguments.first {
            found.append(URL(fileURLWithPath: argv0).deletingLastPathComponent())
        }
        return found
    }
}
