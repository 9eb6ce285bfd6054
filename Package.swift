// swift-tools-version:6.1
import PackageDescription

// beacond: BLE proximity beacons → ranging → alert strategies → alerts.
//
// Data flows one way: sources → BeaconWire (parse) → BeaconRanging → BeaconStrategyKit
// (strategies) → BeaconAlertEngine → BeaconPipeline (the stages, owned by one task) → sinks.
// Core, Wire, Ranging, StrategyKit, Strategies, AlertEngine and Pipeline need no system library;
// BlueZ's headers are read by BeaconBlueZ alone (nothing of libbluetooth is linked).

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // A member is visible only where its module is imported: every file says what it uses.
    .enableUpcomingFeature("MemberImportVisibility"),
    // Each function in a section of its own in a release build, so that the link can lay out
    // the functions a gateway runs together (see beacondReleaseLinkerSettings) and drop the ones
    // nothing calls, not whole files of them.
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release)),
    // The package's own code builds without a warning, and stays so: a warning is an error here
    // (not in the dependencies, which get their own settings).
    .unsafeFlags(["-warnings-as-errors"]),
]

// The release beacond on Linux is linked for a gateway's memory (BENCHMARKS.md, "What a gateway
// costs"): by lld, whose packed relative relocations (DT_RELR, glibc 2.36: Debian 12) replace the
// 2.8 MB of relocation records the dynamic loader reads at every start, and with the functions a
// gateway runs laid out first, in the order of packaging/beacond.order (scripts/symbol_order.py
// writes it from a profile of `make bench-gateway`'s load), so that the code it touches is packed
// on a few contiguous pages instead of scattered over 25 MB, 64 KB of fault-around at a time.
// A name in the list that no longer exists is skipped silently; nothing else changes.
let beacondReleaseLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/packaging/beacond.order",
            "-Xlinker", "--no-warn-symbol-ordering",
        ], .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "beacond",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "BeaconCore", targets: ["BeaconCore"]),
        .library(name: "BeaconWire", targets: ["BeaconWire"]),
        .library(name: "BeaconCrypto", targets: ["BeaconCrypto"]),
        .library(name: "BeaconDevices", targets: ["BeaconDevices"]),
        .library(name: "BeaconRanging", targets: ["BeaconRanging"]),
        .library(name: "BeaconStrategyKit", targets: ["BeaconStrategyKit"]),
        .library(name: "BeaconStrategies", targets: ["BeaconStrategies"]),
        .library(name: "BeaconStrategyPlugins", targets: ["BeaconStrategyPlugins"]),
        .library(name: "BeaconAlertEngine", targets: ["BeaconAlertEngine"]),
        .library(name: "BeaconPipeline", targets: ["BeaconPipeline"]),
        .library(name: "BeaconSiteReport", targets: ["BeaconSiteReport"]),
        .library(name: "BeaconSite", targets: ["BeaconSite"]),
        .library(name: "BeaconForeignNodes", targets: ["BeaconForeignNodes"]),
        .library(name: "BeaconConfiguration", targets: ["BeaconConfiguration"]),
        .library(name: "BeaconSimulator", targets: ["BeaconSimulator"]),
        .library(name: "BeaconBlueZ", targets: ["BeaconBlueZ"]),
        .library(name: "BeaconControl", targets: ["BeaconControl"]),
        .library(name: "BeaconDaemonConfiguration", targets: ["BeaconDaemonConfiguration"]),
        .library(name: "BeaconSiteLink", targets: ["BeaconSiteLink"]),
        .library(name: "BeaconOfflineRuns", targets: ["BeaconOfflineRuns"]),
        .library(name: "BeaconGateway", targets: ["BeaconGateway"]),
        // An example strategy plugin, loaded with `beacond --plugin` (and by BeaconStrategyPluginsTests).
        .library(name: "ExampleStrategyPlugin", type: .dynamic, targets: ["ExampleStrategyPlugin"]),
        // The same contract in C, against beacond_plugin.h alone (loaded by BeaconStrategyPluginsTests).
        .library(name: "ExampleCPlugin", type: .dynamic, targets: ["ExampleCPlugin"]),
        // The command line with its subcommands, for a build that adds strategies (Examples/CustomGateway).
        .library(name: "BeaconCommandLine", targets: ["BeaconCommandLine"]),
        .executable(name: "beacond", targets: ["beacond"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // FileDescriptor.writeAll: the one write-all loop (short writes, EINTR) of the leaf modules.
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        // SHA-256, HMAC-SHA-256 and the AES-128 that resolves private addresses: BoringSSL's, not
        // hand-written ones (BeaconCrypto is the only module that imports it).
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        // `make docs`: DocC catalogs and symbol links checked in CI (a plugin; nothing of it is linked).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // MARK: Libraries, upstream first
        .target(name: "BeaconCore", swiftSettings: swiftSettings),
        .target(name: "BeaconWire", dependencies: ["BeaconCore"], swiftSettings: swiftSettings),
        // Hashes, codes and keys over swift-crypto: SHA-256, HMAC-SHA-256 (signed reports, webhooks,
        // sealed commands) and identity resolving keys (AES-128, for resolvable private addresses).
        .target(
            name: "BeaconCrypto",
            dependencies: [
                "BeaconCore", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),
        // Phones and watches: enrolled devices, their private addresses resolved (with the
        // corroboration that keeps a chance match from arriving), and what else is heard.
        .target(name: "BeaconDevices", dependencies: ["BeaconCore", "BeaconCrypto", "BeaconWire"], swiftSettings: swiftSettings),
        // BlueZ's headers (libbluetooth-dev); no library is linked (see its module map).
        .systemLibrary(name: "CBluetooth"),
        .target(
            name: "BeaconBlueZ", dependencies: ["BeaconCore", "CBluetooth"],
            swiftSettings: swiftSettings),
        // A header-only leaf: the processor's prefetch hint, for the ranging loop's batch path.
        .target(name: "CBeaconPrefetch"),
        // A header-only leaf: the C library's heap trimming, after a large table outgrows its buffer.
        .target(name: "CBeaconHeap"),
        .target(
            name: "BeaconRanging", dependencies: ["BeaconCore", "CBeaconPrefetch", "CBeaconHeap"],
            swiftSettings: swiftSettings),
        // What a gateway tells a hub: records, the report format (binary and JSON), signatures, topics,
        // and why a report is refused. Needs nothing but BeaconCore, so the fuzzer links it alone.
        .target(name: "BeaconSiteReport", dependencies: ["BeaconCore"], swiftSettings: swiftSettings),
        // A site hub's stage: gateways' per-cycle records fused into rooms and positions.
        .target(
            name: "BeaconSite",
            dependencies: ["BeaconCore", "BeaconCrypto", "BeaconRanging", "BeaconSiteReport", "CBeaconPrefetch"],
            swiftSettings: swiftSettings),
        // ESPresense, OpenMQTTGateway and Theengs nodes as a site's gateways: their MQTT payloads
        // translated (raw advertising data by BeaconWire) and ranged into the reports ours publish.
        .target(
            name: "BeaconForeignNodes",
            dependencies: ["BeaconCore", "BeaconDevices", "BeaconWire", "BeaconRanging", "BeaconSiteReport"],
            swiftSettings: swiftSettings),
        // The strategy contract: protocol, base class, parameters, registry, saved state.
        .target(name: "BeaconStrategyKit", dependencies: ["BeaconCore"], swiftSettings: swiftSettings),
        .target(
            name: "BeaconStrategies", dependencies: ["BeaconCore", "BeaconStrategyKit"], path: "Strategies",
            exclude: ["README.md"], swiftSettings: swiftSettings),
        // Strategies from shared libraries: the C interface (beacond_plugin.h) and both of its sides.
        .target(name: "CBeacondPlugin"),
        .target(
            name: "BeaconStrategyPlugins", dependencies: ["BeaconCore", "BeaconStrategyKit", "CBeacondPlugin"],
            swiftSettings: swiftSettings),
        // The alert engine: firings and facts in, state changes and lifecycle events out.
        .target(name: "BeaconAlertEngine", dependencies: ["BeaconCore", "BeaconCrypto"], swiftSettings: swiftSettings),
        // The stages after a source, and the one task that owns them: no NIO, HTTP, SQLite or radio.
        .target(
            name: "BeaconPipeline",
            dependencies: [
                "BeaconCore", "BeaconWire", "BeaconDevices", "BeaconRanging", "BeaconSite", "BeaconSiteReport",
                "BeaconStrategyKit",
                "BeaconAlertEngine",
            ],
            swiftSettings: swiftSettings),
        // Outgoing HTTP(S) on the platform's URL loading (libcurl on Linux): no TLS stack to build.
        // FoundationNetworking links libcurl itself, except when the Swift runtime is linked statically.
        .target(
            name: "BeaconHTTP", dependencies: ["CBeaconCurl"], swiftSettings: swiftSettings,
            linkerSettings: [.linkedLibrary("curl", .when(platforms: [.linux]))]),
        // One GET through libcurl with a client certificate (mutual TLS), which URLSession cannot
        // present on Linux; libcurl4-openssl-dev's headers.
        .target(name: "CBeaconCurl", linkerSettings: [.linkedLibrary("curl")]),
        .target(
            name: "BeaconSinks",
            dependencies: [
                "BeaconCore", "BeaconCrypto", "BeaconAlertEngine", "BeaconHTTP",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swiftSettings),
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        .target(
            name: "BeaconMQTT", dependencies: ["BeaconCore", "BeaconSinks", "CMosquitto"],
            swiftSettings: swiftSettings),
        .target(
            name: "BeaconStore",
            dependencies: [
                "BeaconCore", "BeaconAlertEngine", "BeaconSinks",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "engine-crash-harness", dependencies: ["BeaconCore", "BeaconAlertEngine", "BeaconStore"],
            swiftSettings: swiftSettings),
        .target(
            name: "ExampleStrategyPlugin",
            dependencies: ["BeaconCore", "BeaconStrategyKit", "BeaconStrategies", "BeaconStrategyPlugins"],
            swiftSettings: swiftSettings),
        .target(name: "ExampleCPlugin", dependencies: ["CBeacondPlugin"]),
        // The one YAML reader: configuration and scenarios, errors at file:line:column.
        .target(
            name: "BeaconConfiguration", dependencies: ["BeaconCore", .product(name: "Yams", package: "Yams")],
            swiftSettings: swiftSettings),
        .target(
            name: "BeaconSimulator",
            dependencies: [
                "BeaconCore", "BeaconCrypto", "BeaconWire", "BeaconConfiguration", "BeaconSiteReport",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swiftSettings),
        // The HTTP control endpoint (the package's only SwiftNIO user): routes, limits, the status
        // page, its API and the board that caches what the page shows.
        .target(
            name: "BeaconControl",
            dependencies: [
                "BeaconCore", "BeaconCrypto", "BeaconDevices", "BeaconPipeline", "BeaconSite", "BeaconSiteReport",
                "BeaconAlertEngine",
                "BeaconStrategyKit",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The status page (Status/StatusPage.swift), compiled in as bytes: no Bundle to find at run time.
            resources: [.embedInCode("Status/Resources/status.html")], swiftSettings: swiftSettings),
        // The daemon's files, read and checked (gateway, hub, sinks, site, remote alert sets), and
        // the sinks they name, built.
        .target(
            name: "BeaconDaemonConfiguration",
            dependencies: [
                "BeaconCore", "BeaconCrypto", "BeaconDevices", "BeaconWire", "BeaconBlueZ", "BeaconRanging", "BeaconStrategyKit",
                "BeaconAlertEngine",
                "BeaconPipeline", "BeaconSite", "BeaconSiteReport", "BeaconSinks", "BeaconMQTT", "BeaconConfiguration",
                "BeaconForeignNodes",
            ],
            swiftSettings: swiftSettings),
        // A gateway's link to its site: reports published, reports subscribed to (a hub), presence lines.
        .target(
            name: "BeaconSiteLink",
            dependencies: [
                "BeaconCore", "BeaconWire", "BeaconAlertEngine", "BeaconPipeline", "BeaconSite", "BeaconSiteReport",
                "BeaconSinks", "BeaconMQTT",
                "BeaconDaemonConfiguration", "BeaconForeignNodes",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swiftSettings),
        // Offline runs next to the simulator: a scenario or a site's captures through the pipeline
        // on virtual or capture time, with no daemon, network or state file.
        .target(
            name: "BeaconOfflineRuns",
            dependencies: [
                "BeaconCore", "BeaconDevices", "BeaconWire", "BeaconRanging", "BeaconStrategyKit", "BeaconAlertEngine",
                "BeaconPipeline",
                "BeaconSimulator", "BeaconSite", "BeaconSiteReport", "BeaconDaemonConfiguration", "BeaconSiteLink",
                "BeaconForeignNodes",
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "BeaconGateway",
            dependencies: [
                "BeaconCore", "BeaconCrypto", "BeaconDevices", "BeaconWire", "BeaconBlueZ", "BeaconRanging", "BeaconStrategyKit",
                "BeaconStrategies",
                "BeaconAlertEngine", "BeaconPipeline", "BeaconSimulator", "BeaconSite", "BeaconSiteReport", "BeaconSinks",
                "BeaconStore", "BeaconMQTT",
                "BeaconHTTP", "BeaconConfiguration", "BeaconControl", "BeaconDaemonConfiguration", "BeaconSiteLink",
                "BeaconForeignNodes", "BeaconBuildInfo",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"), .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),
        // The version string, set by `make dist` from git tags (see its header).
        .target(name: "CBeacondVersion"),
        // The version and the commit built from (written before each build by BuildCommitPlugin).
        .target(name: "BeaconBuildInfo", dependencies: ["CBeacondVersion"], plugins: ["BuildCommitPlugin"]),
        .plugin(name: "BuildCommitPlugin", capability: .buildTool()),
        // The command line, as a library: `beacond` is its `main()`, and a package with strategies
        // of its own ships the same command line with them (`Beacond.main(adding:)`).
        .target(
            name: "BeaconCommandLine",
            dependencies: [
                "BeaconCore", "BeaconCrypto", "BeaconDevices", "BeaconWire", "BeaconBlueZ", "BeaconRanging", "BeaconStrategyKit",
                "BeaconStrategies",
                "BeaconStrategyPlugins", "BeaconAlertEngine", "BeaconPipeline", "BeaconSimulator", "BeaconSite",
                "BeaconSiteReport", "BeaconControl", "BeaconDaemonConfiguration", "BeaconSiteLink", "BeaconOfflineRuns",
                "BeaconGateway",
                "BeaconSinks", "BeaconStore", "BeaconBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
                "BeaconHTTP",
            ], swiftSettings: swiftSettings),
        .executableTarget(
            name: "beacond", dependencies: ["BeaconCommandLine"], swiftSettings: swiftSettings,
            linkerSettings: beacondReleaseLinkerSettings),

        // MARK: Tests
        // What several test targets share: packets built from the specifications, scripted sources.
        .target(
            name: "BeaconTestSupport", dependencies: ["BeaconCore"], path: "Tests/BeaconTestSupport",
            exclude: ["config_server.py", "mqtt_delay_proxy.py", "tcp_blackhole_proxy.py"], swiftSettings: swiftSettings),
        // Scripted ranging cycles for strategy tests (kit and plugins).
        .target(
            name: "BeaconStrategyTestSupport", dependencies: ["BeaconCore", "BeaconStrategyKit"],
            path: "Tests/BeaconStrategyTestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "BeaconCoreTests", dependencies: ["BeaconCore", "BeaconTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "BeaconCryptoTests", dependencies: ["BeaconCore", "BeaconCrypto"], swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconDevicesTests", dependencies: ["BeaconCore", "BeaconCrypto", "BeaconDevices", "BeaconWire"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconWireTests", dependencies: ["BeaconCore", "BeaconWire", "BeaconTestSupport"],
            resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconBlueZTests", dependencies: ["BeaconCore", "BeaconWire", "BeaconBlueZ"],
            resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconRangingTests", dependencies: ["BeaconCore", "BeaconRanging"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconSiteTests",
            dependencies: [
                "BeaconCore", "BeaconRanging", "BeaconSite", "BeaconSiteReport", "BeaconStrategies", "BeaconStrategyKit",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconSiteLinkTests",
            dependencies: [
                "BeaconCore", "BeaconSiteLink", "BeaconPipeline", "BeaconSite", "BeaconSiteReport", "BeaconStrategies",
                "BeaconForeignNodes", "BeaconDaemonConfiguration",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconForeignNodesTests",
            dependencies: [
                "BeaconCore", "BeaconCrypto", "BeaconDevices", "BeaconRanging", "BeaconSiteReport", "BeaconForeignNodes",
            ],
            resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconStrategyKitTests",
            dependencies: ["BeaconCore", "BeaconStrategyKit", "BeaconStrategies", "BeaconStrategyTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconStrategyPluginsTests",
            dependencies: [
                "BeaconCore", "BeaconStrategyKit", "BeaconStrategies", "BeaconStrategyPlugins", "BeaconStrategyTestSupport",
                "CBeacondPlugin",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconAlertEngineTests", dependencies: ["BeaconCore", "BeaconAlertEngine"], swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconPipelineTests",
            dependencies: [
                "BeaconCore", "BeaconCrypto", "BeaconDevices", "BeaconWire", "BeaconStrategyKit", "BeaconAlertEngine",
                "BeaconPipeline", "BeaconSite", "BeaconSiteReport",
                "BeaconStrategies", "BeaconTestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconStoreTests",
            dependencies: [
                "BeaconCore", "BeaconAlertEngine", "BeaconStore", "BeaconSinks", "BeaconTestSupport",
                "engine-crash-harness",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconMQTTTests", dependencies: ["BeaconCore", "BeaconSinks", "BeaconMQTT", "BeaconTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconSinksTests",
            dependencies: [
                "BeaconCore", "BeaconAlertEngine", "BeaconSinks", "BeaconStore", "BeaconHTTP",
                "BeaconTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconSimulatorTests",
            dependencies: [
                "BeaconCore", "BeaconCrypto", "BeaconWire", "BeaconConfiguration", "BeaconSimulator", "BeaconTestSupport",
            ],
            exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconGatewayTests",
            dependencies: [
                "BeaconGateway", "BeaconCrypto", "BeaconDevices", "BeaconControl", "BeaconDaemonConfiguration", "BeaconSiteLink",
                "BeaconOfflineRuns",
                "BeaconConfiguration", "BeaconStrategyKit", "BeaconStrategies", "BeaconAlertEngine",
                "BeaconPipeline", "BeaconSite", "BeaconSiteReport", "BeaconStore",
                "BeaconTestSupport", "BeaconSimulator", "BeaconHTTP", "BeaconForeignNodes", "BeaconSinks", "BeaconBuildInfo",
                "BeaconBlueZ",
            ],
            swiftSettings: swiftSettings),
    ]
)
