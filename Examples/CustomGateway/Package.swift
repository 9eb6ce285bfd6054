// swift-tools-version:6.1
import PackageDescription

// An example of extending beacond without forking it: a package that depends on the beacond
// library, adds its own alert strategy to the registry, and makes strategies from configuration.
//
//     swift run --package-path Examples/CustomGateway
let package = Package(
    name: "CustomGateway",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "beacond", path: "../..")],
    targets: [
        .executableTarget(
            name: "CustomGateway",
            dependencies: [
                .product(name: "BeaconCore", package: "beacond"),
                .product(name: "BeaconStrategyKit", package: "beacond"),
                .product(name: "BeaconStrategies", package: "beacond"),
            ], swiftSettings: [.enableUpcomingFeature("ExistentialAny")])
    ]
)
