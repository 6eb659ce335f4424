// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "aggr",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "aggr", targets: ["aggr"]),
        .library(name: "Aggregator", targets: ["Aggregator"]),
        .library(name: "Providers", targets: ["Providers"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // libcurl's headers, and its functions loaded on first use (see include/CCurl.h).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // libcrypto's digests for signed requests, loaded on first use (see include/COpenSSL.h).
        .target(name: "COpenSSL", linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "Aggregator",
            dependencies: [
                "CCurl",
                "CLibXML2",
                "COpenSSL",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "Providers", dependencies: ["Aggregator"]),
        .executableTarget(
            name: "aggr",
            dependencies: [
                "Aggregator",
                "Providers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "AggregatorTestSupport",
            dependencies: ["Aggregator", "Providers"]
        ),
        .testTarget(
            name: "AggregatorTests",
            dependencies: ["Aggregator", "AggregatorTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Feed/Fixtures"]
        ),
        .testTarget(name: "ProvidersTests", dependencies: ["Providers", "AggregatorTestSupport"]),
        .testTarget(
            name: "aggrTests",
            dependencies: ["aggr", "AggregatorTestSupport"],
            exclude: ["Fixtures", "Golden"]
        ),
        .target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(
            name: "aggr-fuzz",
            dependencies: ["AggregatorTestSupport", "CLibFuzzer"],
            path: "Fuzz/aggr-fuzz"
        ),
        .executableTarget(
            name: "aggr-bench",
            dependencies: ["Aggregator", "Providers", "AggregatorTestSupport"],
            path: "Benchmarks/aggr-bench"
        ),
    ],
    swiftLanguageModes: [.v6]
)
