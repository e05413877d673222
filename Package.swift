// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "aasa",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "AASA", targets: ["AASA"]),
        .library(name: "AASAReports", targets: ["AASAReports"]),
        .library(name: "AASAAudit", targets: ["AASAAudit"]),
        .executable(name: "aasa", targets: ["aasa"]),
    ],
    // A package that uses only the AASA library depends on this one with `traits: []`: then
    // SwiftPM resolves none of swift-nio, swift-nio-ssl and swift-argument-parser.
    traits: [
        .trait(name: "Audit", description: "AASAAudit: live domains over HTTPS (SwiftNIO, NIOSSL)."),
        .trait(name: "CLI", description: "The aasa command (swift-argument-parser).", enabledTraits: ["Audit"]),
        .default(enabledTraits: ["CLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The audit's HTTPS client: SwiftNIO's HTTP/1.1 codec over NIOSSL, so that the TLS
        // verification callback sees the chain of the very connection that serves the file.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        // RFC 4180 CSV for `aasa audit summarize --format csv` (quoting, CRLF).
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
    ],
    targets: [
        // The system OpenSSL 3 (Debian: libssl-dev). Only CAASACrypto imports it.
        .systemLibrary(
            name: "CAASAOpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // The narrow C API over OpenSSL: the only code that touches OpenSSL.
        .target(
            name: "CAASACrypto",
            dependencies: ["CAASAOpenSSL"],
            cSettings: [
                .define("OPENSSL_API_COMPAT", to: "30000"),
                .define("OPENSSL_NO_DEPRECATED"),
            ]
        ),
        // The core library: detection, signing, verification, extraction. No CLI or network.
        .target(
            name: "AASA",
            dependencies: ["CAASACrypto"]
        ),
        // The report formats (SARIF, JUnit, GitLab Code Quality, Markdown, diagnostic lines)
        // and the JSON encoding of every output: documents as bytes, no I/O.
        .target(
            name: "AASAReports",
            dependencies: ["AASA"]
        ),
        // Live deployments over HTTPS (`aasa audit`): the only target with network dependencies.
        .target(
            name: "AASAAudit",
            dependencies: [
                "AASA",
                "AASAReports",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Audit"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Audit"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Audit"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["Audit"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Audit"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Audit"])),
                .product(name: "CSV", package: "CSV.swift", condition: .when(traits: ["Audit"])),
            ]
        ),
        .executableTarget(
            name: "aasa",
            dependencies: [
                "AASA",
                "AASAReports",
                "AASAAudit",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CLI"])),
            ]
        ),
        // The benchmark (docs/performance.md): `swift run -c release aasa-bench [--quick]`. Not a test.
        .executableTarget(
            name: "aasa-bench",
            dependencies: ["AASA"]
        ),
        // What every test target shares: the repository locator, the corpus, the executables.
        .target(
            name: "AASATestSupport",
            path: "Tests/AASATestSupport"
        ),
        .testTarget(
            name: "AASATests",
            dependencies: ["AASA", "AASATestSupport"]
        ),
        .testTarget(
            name: "AASAReportsTests",
            dependencies: ["AASAReports", "AASA", "AASATestSupport"]
        ),
        .testTarget(
            name: "AASACLITests",
            dependencies: ["aasa", "AASA", "AASATestSupport"]
        ),
        // Against a real nginx on 127.0.0.1 (started by the tests) with the certs/ PKI; the
        // fetch's handler on SwiftNIO's EmbeddedChannel, without a socket.
        .testTarget(
            name: "AASAAuditTests",
            dependencies: [
                "AASAAudit", "AASAReports", "AASA", "aasa", "AASATestSupport",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Audit"])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["Audit"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Audit"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["Audit"])),
            ]
        ),
    ]
)

// libFuzzer harnesses (Fuzz/README.md). Built normally they replay files; scripts/fuzz.sh builds
// them with -sanitize=fuzzer,address and -DFUZZING, where their main runs libFuzzer.
package.targets.append(.target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"))
for harness in ["FuzzSignedData", "FuzzDocument", "FuzzMatch"] {
    package.targets.append(
        .executableTarget(
            name: harness, dependencies: ["AASA", "FuzzSupport"], path: "Fuzz/\(harness)",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
}

// Swift targets only: the C targets take no Swift settings.
for target in package.targets
where [.regular, .executable, .test].contains(target.type) && !target.name.hasPrefix("CAASA") {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
