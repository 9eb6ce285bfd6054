// swift-tools-version:6.1
import PackageDescription

// `make bench`: release-mode throughput and allocation figures for beacond's hot paths.
// Kept out of the main package so that `make test` never builds it.
let package = Package(
    name: "beacond-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "beacond", path: "..")],
    targets: [
        .target(name: "CMallocCounter"),
        .target(name: "CReferenceParser"),
        .executableTarget(
            name: "beacond-bench",
            dependencies: [
                "CMallocCounter", "CReferenceParser",
                .product(name: "BeaconCore", package: "beacond"),
                .product(name: "BeaconWire", package: "beacond"),
                .product(name: "BeaconRanging", package: "beacond"),
                .product(name: "BeaconStrategyKit", package: "beacond"),
                .product(name: "BeaconAlertEngine", package: "beacond"),
                .product(name: "BeaconStrategies", package: "beacond"),
                .product(name: "BeaconSimulator", package: "beacond"),
                .product(name: "BeaconPipeline", package: "beacond"),
                .product(name: "BeaconSite", package: "beacond"), .product(name: "BeaconSiteReport", package: "beacond"),
                .product(name: "BeaconCrypto", package: "beacond"), .product(name: "BeaconDevices", package: "beacond"),
            ],
            // Built like what ships (-O, checks on): the harness inlines library code it measures.
            // Export the allocator interposer so that libswiftCore's malloc calls reach it.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]),
    ]
)
