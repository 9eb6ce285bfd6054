import BeaconDaemonConfiguration
import BeaconSinks
import BeaconSiteLink
import Logging

/// A hub with `hub.takeover`: its part in the share's hot standby, waking the dispatchers when it
/// takes over; `nil` for any other daemon.
func makeHubLease(
    _ configuration: GatewayConfiguration, feed: GatewayFeed, outbox: any Outbox, sinks: [String],
    notified: DispatcherDirectory, logger: Logger
) -> HubLease? {
    guard case .site = feed, let site = configuration.site, let hub = configuration.hub, let takeover = hub.takeover
    else { return nil }
    return HubLease(
        settings: site, takeover: takeover, partition: hub.partition, outbox: outbox, sinks: sinks, logger: logger,
        wake: { notified.notify(sinks) })
}
