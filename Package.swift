// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "aasa",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "AASA", targets: ["AASA"]),
        .executable(name: "aasa", targets: ["aasa"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
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
        .executableTarget(
            name: "aasa",
            dependencies: [
                "AASA",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "AASATests",
            dependencies: ["AASA"]
        ),
        .testTarget(
            name: "AASACLITests",
            dependencies: ["aasa"]
        ),
    ]
)

// Swift targets only: the C targets take no Swift settings.
for target in package.targets where [.regular, .executable, .test].contains(target.type) && !target.name.hasPrefix("CAASA") {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
