// swift-tools-version:6.1
import PackageDescription

// An example of extending beacond without forking it: a package that depends on the beacond
// library, adds its own alert strategy (`steady-signal`) and ships the whole beacond command
// line with it — `run` and `hub` (the daemon), `check-config`, `strategies`, `simulate`,
// `replay`, `explain`, `diff-alerts` … all know the new strategy and its typed parameters.
//
//     swift build --package-path Examples/CustomGateway
//     Examples/CustomGateway/.build/debug/custom-gateway run --config Examples/CustomGateway/shelf.gateway.yaml
let package = Package(
    name: "CustomGateway",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "custom-gateway", targets: ["CustomGateway"])],
    dependencies: [.package(name: "beacond", path: "../..")],
    targets: [
        .executableTarget(
            name: "CustomGateway",
            dependencies: [
                .product(name: "BeaconCore", package: "beacond"),
                .product(name: "BeaconStrategyKit", package: "beacond"),
                .product(name: "BeaconCommandLine", package: "beacond"),
            ], swiftSettings: [.enableUpcomingFeature("ExistentialAny")])
    ]
)
