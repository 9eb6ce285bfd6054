// swift-tools-version:6.1
import PackageDescription

// beacond: BLE proximity beacons → ranging → alert strategies → alerts.
//
// Data flows one way: sources → BeaconWire (parse) → BeaconRanging → BeaconAlerting
// (strategies, engine) → BeaconPipeline (the stages, owned by one task) → sinks. Core, Wire,
// Ranging, Alerting, Strategies and Pipeline need no system library; BlueZ's headers are read by
// BeaconBlueZ alone (nothing of libbluetooth is linked).

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // A member is visible only where its module is imported: every file says what it uses.
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "beacond",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "BeaconCore", targets: ["BeaconCore"]),
        .library(name: "BeaconWire", targets: ["BeaconWire"]),
        .library(name: "BeaconRanging", targets: ["BeaconRanging"]),
        .library(name: "BeaconAlerting", targets: ["BeaconAlerting"]),
        .library(name: "BeaconStrategies", targets: ["BeaconStrategies"]),
        .library(name: "BeaconPipeline", targets: ["BeaconPipeline"]),
        .library(name: "BeaconSimulator", targets: ["BeaconSimulator"]),
        .library(name: "BeaconBlueZ", targets: ["BeaconBlueZ"]),
        .library(name: "BeaconGateway", targets: ["BeaconGateway"]),
        // An example strategy plugin, loaded with `beacond --plugin` (and by BeaconAlertingTests).
        .library(name: "ExampleStrategyPlugin", type: .dynamic, targets: ["ExampleStrategyPlugin"]),
        .executable(name: "beacond", targets: ["beacond"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // FileDescriptor.writeAll: the one write-all loop (short writes, EINTR) of the leaf modules.
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        // MARK: Libraries, upstream first
        .target(name: "BeaconCore", swiftSettings: swiftSettings),
        .target(name: "BeaconWire", dependencies: ["BeaconCore"], swiftSettings: swiftSettings),
        // BlueZ's headers (libbluetooth-dev); no library is linked (see its module map).
        .systemLibrary(name: "CBluetooth"),
        .target(
            name: "BeaconBlueZ", dependencies: ["BeaconCore", "BeaconWire", "CBluetooth"],
            swiftSettings: swiftSettings),
        // A header-only leaf: the processor's prefetch hint, for the ranging loop's batch path.
        .target(name: "CBeaconPrefetch"),
        .target(name: "BeaconRanging", dependencies: ["BeaconCore", "CBeaconPrefetch"], swiftSettings: swiftSettings),
        .target(name: "BeaconAlerting", dependencies: ["BeaconCore"], swiftSettings: swiftSettings),
        // The stages after a source, and the one task that owns them: no NIO, HTTP, SQLite or radio.
        .target(
            name: "BeaconPipeline", dependencies: ["BeaconCore", "BeaconWire", "BeaconRanging", "BeaconAlerting"],
            swiftSettings: swiftSettings),
        // Outgoing HTTP(S) on the platform's URL loading (libcurl on Linux): no TLS stack to build.
        // FoundationNetworking links libcurl itself, except when the Swift runtime is linked statically.
        .target(
            name: "BeaconHTTP", swiftSettings: swiftSettings,
            linkerSettings: [.linkedLibrary("curl", .when(platforms: [.linux]))]),
        .target(
            name: "BeaconSinks",
            dependencies: [
                "BeaconCore", "BeaconAlerting", "BeaconHTTP", .product(name: "SystemPackage", package: "swift-system"),
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
                "BeaconCore", "BeaconAlerting", "BeaconSinks",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "engine-crash-harness", dependencies: ["BeaconCore", "BeaconAlerting", "BeaconStore"],
            swiftSettings: swiftSettings),
        .target(
            name: "BeaconStrategies", dependencies: ["BeaconCore", "BeaconAlerting"], swiftSettings: swiftSettings),
        .target(
            name: "ExampleStrategyPlugin", dependencies: ["BeaconCore", "BeaconAlerting", "BeaconStrategies"],
            swiftSettings: swiftSettings),
        .target(
            name: "BeaconSimulator",
            dependencies: [
                "BeaconCore", "BeaconWire",
                .product(name: "Yams", package: "Yams"), .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "BeaconGateway",
            dependencies: [
                "BeaconCore", "BeaconWire", "BeaconBlueZ", "BeaconRanging", "BeaconAlerting", "BeaconPipeline",
                "BeaconStrategies", "BeaconSimulator", "BeaconSinks", "BeaconStore", "BeaconMQTT",
                "BeaconHTTP", .product(name: "Yams", package: "Yams"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"), .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ], swiftSettings: swiftSettings),
        // The version string, set by `make dist` from git tags (see its header).
        .target(name: "CBeacondVersion"),
        .executableTarget(
            name: "beacond",
            dependencies: [
                "BeaconCore", "BeaconWire", "BeaconBlueZ", "BeaconRanging", "BeaconAlerting", "BeaconPipeline",
                "BeaconStrategies",
                "BeaconSimulator", "BeaconGateway", "CBeacondVersion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
                "BeaconHTTP",
            ], swiftSettings: swiftSettings),

        // MARK: Tests
        // What several test targets share: packets built from the specifications, scripted sources.
        .target(
            name: "BeaconTestSupport", dependencies: ["BeaconCore"], path: "Tests/BeaconTestSupport",
            exclude: ["config_server.py"], swiftSettings: swiftSettings),
        .testTarget(name: "BeaconCoreTests", dependencies: ["BeaconCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconWireTests", dependencies: ["BeaconCore", "BeaconWire"],
            resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconBlueZTests", dependencies: ["BeaconCore", "BeaconWire", "BeaconBlueZ"],
            resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconRangingTests", dependencies: ["BeaconCore", "BeaconRanging"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconAlertingTests", dependencies: ["BeaconCore", "BeaconAlerting", "BeaconStrategies"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconPipelineTests",
            dependencies: [
                "BeaconCore", "BeaconAlerting", "BeaconPipeline",
                "BeaconStrategies", "BeaconTestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconStoreTests",
            dependencies: [
                "BeaconCore", "BeaconAlerting", "BeaconStore",
                "engine-crash-harness",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconMQTTTests", dependencies: ["BeaconCore", "BeaconSinks", "BeaconMQTT", "BeaconTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconSinksTests",
            dependencies: [
                "BeaconCore", "BeaconAlerting", "BeaconSinks", "BeaconStore",
                "BeaconTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconSimulatorTests", dependencies: ["BeaconCore", "BeaconWire", "BeaconSimulator"],
            exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(
            name: "BeaconGatewayTests",
            dependencies: [
                "BeaconGateway", "BeaconPipeline", "BeaconStore", "BeaconTestSupport", "BeaconSimulator", "BeaconHTTP",
            ],
            swiftSettings: swiftSettings),
    ]
)
