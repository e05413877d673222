// The programs the tests run: the `aasa` executable under test, the `openssl` CLI oracle, and
// the tools some tests need (nginx, util-linux `script`). Every target finds them here.
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
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        fatalError("cannot find the aasa executable in \(productsDirectories.map(\.path))")
    }()

    /// The `openssl` CLI from PATH (the interop oracle; scripts/ensure-deps.sh installs it).
    public static let openssl: URL = onPath("openssl", otherwise: "/usr/bin/openssl")

    /// nginx, for the audit tests: `$NGINX` when set, otherwise Debian's `/usr/sbin/nginx`
    /// (scripts/ensure-deps.sh installs it); it may be missing, and the tests that need it then
    /// record a skip.
    public static let nginx: URL = {
        if let override = ProcessInfo.processInfo.environment["NGINX"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return URL(fileURLWithPath: "/usr/sbin/nginx")
    }()

    /// util-linux `script`, which runs a command on a pseudo-terminal, from PATH (it may be missing).
    public static let script: URL = onPath("script", otherwise: "/usr/bin/script")

    /// The first executable `name` in a directory of PATH, or `fallback` when there is none.
    public static func onPath(_ name: String, otherwise fallback: String) -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: fallback)
    }

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
