import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import Logging

/// Builds a site hub fed by `reports` — a simulated site in this process — rather than by a broker:
/// `configuration` has `source: hub` and `hub:` (its gateways, its fusion), and no `site:`.
/// - Throws: ``GatewayError`` naming what cannot be opened or built.
public func buildGateway(
    _ configuration: GatewayConfiguration, reports: any SiteReportSource, registry: StrategyRegistry = .builtIn(),
    clock: AnyTimestampClock = .wall, logger: Logger = Logger(label: "beacond")
) throws(GatewayError) -> Gateway {
    try buildGateway(
        configuration, feed: .reports(reports), registry: registry, clock: clock, metrics: GatewayMetrics(),
        logger: logger)
}
