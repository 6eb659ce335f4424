// swift-tools-version: 6.0
import Foundation
import PackageDescription

// `scripts/fuzz` builds with libFuzzer, whose `main` would replace the catalog plugin's own
// tool; those builds go without the catalogs (see Localization/EmbeddedCatalogs+Fuzzing.swift).
let fuzzing = ProcessInfo.processInfo.environment["AGGR_FUZZING"] != nil

// The binaries people run link with lld and pack their relative relocations (DT_RELR, glibc
// 2.36): a PIE Swift binary has ~90,000 of them, which the dynamic loader read as 2 MB of
// RELA entries before main in every process. They also put the functions a command runs
// first in the code (scripts/startup-order/aggr.order; it orders anything only in a release
// build, whose modules the Makefile compiles with -function-sections): see
// docs/architecture.md, start-up.
let startupLinking: [LinkerSetting] = [
    .unsafeFlags([
        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/startup-order/aggr.order",
        "-Xlinker", "--no-warn-symbol-ordering",
    ])
]

let package = Package(
    name: "aggr",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "aggr", targets: ["aggr"]),
        .executable(name: "aggr-postgres", targets: ["aggr-postgres"]),
        .executable(name: "aggr-serve", targets: ["aggr-serve"]),
        .library(name: "Aggregator", targets: ["Aggregator"]),
        .library(name: "Providers", targets: ["Providers"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The PostgreSQL backend's client (``PostgresStore``); pinned, as the storage format rides on it.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // libcurl's headers, and its functions loaded on first use (see include/CCurl.h).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // Image decoders for the reader's inline images, loaded on first use (include/CImage.h).
        .target(name: "CImage", linkerSettings: [.linkedLibrary("dl")]),
        // libxml2's headers (Debian libxml2-dev), and its functions loaded on first use (see
        // include/CLibXML2.h).
        .target(name: "CLibXML2", linkerSettings: [.linkedLibrary("dl")]),
        // zlib for `aggr serve`'s gzip responses (Debian zlib1g-dev).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // ncursesw for `aggr tui` (Debian libncurses-dev), loaded on first use (see
        // include/CNcurses.h).
        .target(name: "CNcurses", linkerSettings: [.linkedLibrary("dl")]),
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
            ],
            plugins: fuzzing ? [] : ["CatalogEmbedding"]
        ),
        // The message catalogs (po/*.po) built into the library; see docs/architecture.md.
        .executableTarget(name: "catalog-embed"),
        .plugin(name: "CatalogEmbedding", capability: .buildTool(), dependencies: ["catalog-embed"]),
        .target(name: "Providers", dependencies: ["Aggregator"]),
        // The PostgreSQL timeline (`--db postgres://…`): the same storage protocol as the SQLite
        // store, for a team server with several users and workers.
        .target(
            name: "PostgresStorage",
            dependencies: [
                "Aggregator",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the CLI prints: timelines, item pages, tables, refresh progress, the watch log.
        .target(name: "ConsoleFrontEnd", dependencies: ["Aggregator"]),
        // `aggr tui`: the interactive terminal reader.
        .target(name: "TerminalFrontEnd", dependencies: ["Aggregator", "Providers", "CNcurses", "CImage"]),
        // The `aggr` command line: commands parse, call the library, render.
        .target(
            name: "CommandLineFrontEnd",
            dependencies: [
                "Aggregator",
                "Providers",
                "ConsoleFrontEnd",
                "TerminalFrontEnd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "aggr", dependencies: ["CommandLineFrontEnd"], linkerSettings: startupLinking),
        // The same commands able to open PostgreSQL; `aggr` runs it for a postgres:// database.
        .executableTarget(name: "aggr-postgres", dependencies: ["CommandLineFrontEnd", "PostgresStorage"], linkerSettings: startupLinking),
        // `aggr serve`: the web UI, feeds and the Google Reader API over Hummingbird. Its own
        // binary, which `aggr serve` runs, so every other command starts without SwiftNIO.
        .target(
            name: "WebFrontEnd",
            dependencies: [
                "Aggregator",
                "Providers",
                "ConsoleFrontEnd",
                "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "aggr-serve",
            dependencies: ["WebFrontEnd", "PostgresStorage", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            linkerSettings: startupLinking
        ),
        .target(
            name: "AggregatorTestSupport",
            dependencies: ["Aggregator", "Providers", "TerminalFrontEnd"]
        ),
        .testTarget(
            name: "AggregatorTests",
            dependencies: [
                "Aggregator", "AggregatorTestSupport", "ConsoleFrontEnd", "PostgresStorage", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Feed/Fixtures"]
        ),
        .testTarget(name: "ProvidersTests", dependencies: ["Providers", "AggregatorTestSupport", "ConsoleFrontEnd"]),
        .testTarget(
            name: "aggrTests",
            dependencies: ["aggr", "aggr-postgres", "aggr-serve", "AggregatorTestSupport", "TerminalFrontEnd", "PostgresStorage"],
            exclude: ["Fixtures", "Golden", "Scripts"]
        ),
        .target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(
            name: "aggr-fuzz",
            dependencies: ["AggregatorTestSupport", "CLibFuzzer"],
            path: "Fuzz/aggr-fuzz"
        ),
        // `make bench`'s start-up floor with the argument parser aggr keeps (see its main.swift).
        .executableTarget(
            name: "startup-floor-parser",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Benchmarks/startup-floor-parser",
            linkerSettings: startupLinking
        ),
        .executableTarget(
            name: "aggr-bench",
            dependencies: ["Aggregator", "Providers", "AggregatorTestSupport", "PostgresStorage"],
            path: "Benchmarks/aggr-bench"
        ),
    ],
    swiftLanguageModes: [.v6]
)
