// swift-tools-version:6.1
import PackageDescription

// `scripts/fuzz-config.sh`: libFuzzer over the configuration and scenario readers (YAML → typed
// configuration → a built pipeline). Kept out of the main package: it is built with
// `--sanitize=fuzzer --sanitize=address`, which instruments every module it links.
let package = Package(
    name: "beacond-config-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "beacond", path: "../..")],
    targets: [
        .executableTarget(
            name: "config-fuzz",
            dependencies: [
                .product(name: "BeaconConfiguration", package: "beacond"),
                .product(name: "BeaconDaemonConfiguration", package: "beacond"),
                .product(name: "BeaconPipeline", package: "beacond"),
                .product(name: "BeaconSimulator", package: "beacond"),
                .product(name: "BeaconStrategies", package: "beacond"),
                .product(name: "BeaconStrategyKit", package: "beacond"),
            ],
            // No main of its own: libFuzzer's (linked by --sanitize=fuzzer) drives the harness.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    ]
)
