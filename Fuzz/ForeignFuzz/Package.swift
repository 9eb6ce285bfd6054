// swift-tools-version:6.1
import PackageDescription

// `scripts/fuzz-foreign.sh`: libFuzzer over the foreign nodes' readers (ESPresense,
// OpenMQTTGateway, Theengs payloads; recorded MQTT lines) and a node ranging what they say. Kept
// out of the main package: it is built with `--sanitize=fuzzer --sanitize=address`, which
// instruments every module it links.
let package = Package(
    name: "beacond-foreign-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "beacond", path: "../..")],
    targets: [
        .executableTarget(
            name: "foreign-fuzz",
            dependencies: [
                .product(name: "BeaconCore", package: "beacond"),
                .product(name: "BeaconForeignNodes", package: "beacond"),
            ],
            // No main of its own: libFuzzer's (linked by --sanitize=fuzzer) drives the harness.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    ]
)
