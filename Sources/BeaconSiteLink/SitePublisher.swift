import BeaconCore
import BeaconDaemonConfiguration
import BeaconMQTT
import BeaconSite
import BeaconSiteReport
import Logging

/// A gateway's side of a site: after each ranging cycle, one report per bucket of the beacons it
/// tracks, and an empty one to every other bucket (its heartbeat; ``SiteCycleReports``),
/// published with QoS 0 to `<prefix>/<site>/records/<bucket>/<gateway>`. While it tracks
/// nothing its ranging closes no cycle: it then sends the heartbeat alone, once a cycle
/// (``heartbeat(cycleEnd:)``).
///
/// Runs on the pipeline's task (its ``publish(_:)`` is the pipeline's cycle observer, its
/// ``heartbeat(cycleEnd:)`` the cycle clock observer). It never
/// waits: while the broker is away reports are dropped and counted, and the gateway's own
/// ranging, alerts and sinks go on as before. The first drop is logged as a warning, and the
/// return of the broker (with the count dropped meanwhile) as a notice.
package final class SitePublisher: @unchecked Sendable {
    // `@unchecked`: the encoders are used by the pipeline's task only; the client is thread-safe.
    let settings: SiteSettings
    let client: MQTTSiteClient
    private var reports: SiteCycleReports
    private var topics: [String]
    private let cycleLength: Duration
    /// The sequence of the last signed report (``SignedReport``).
    private var sequence: UInt64 = 0
    /// The wall clock a signed report's sequence starts from.
    private let wallClock: @Sendable () -> Timestamp
    private let logger: Logger
    /// Reports dropped since the broker was last reachable.
    private var droppedInOutage = 0

    init(
        settings: SiteSettings, cycleLength: Duration, client: MQTTSiteClient, logger: Logger,
        wallClock: @escaping @Sendable () -> Timestamp = { WallClock().now }
    ) {
        self.wallClock = wallClock
        self.settings = settings
        self.cycleLength = cycleLength
        self.client = client
        self.logger = logger
        reports = SiteCycleReports(gateway: settings.gateway, format: settings.format, topics: settings.topics)
        topics = (0..<settings.topics.bucketCount).map { settings.topics.recordsTopic(bucket: $0, gateway: settings.gateway) }
    }

    /// Connects to the site's broker (in the background); `cycleLength` is the gateway's ranging
    /// cycle (its heartbeat's period); `connected` is called on each connection (the daemon's
    /// readiness), on libmosquitto's network thread.
    package convenience init(
        settings: SiteSettings, cycleLength: Duration, logger: Logger, connected: @escaping @Sendable () -> Void = {}
    ) throws(MQTTSinkError) {
        var options = settings.connection
        options.statusTopic = "\(settings.topics.prefix)/\(settings.topics.site)/gateways/\(settings.gateway)/status"
        let client = try MQTTSiteClient(
            host: settings.host, port: settings.port, options: options,
            clientID: "beacond-\(settings.topics.site)-\(settings.gateway)",
            onConnection: { isConnected, _ in if isConnected { connected() } })
        self.init(settings: settings, cycleLength: cycleLength, client: client, logger: logger)
    }

    /// Publishes the cycle's reports: its records (every tracked beacon, those within their
    /// missed-scan grace included, flagged as unseen), and an empty report to each other bucket.
    package func publish(_ update: RangingUpdate) {
        reports.encode(update) { bucket, report in send(report, bucket: bucket) }
    }

    /// Publishes the empty reports of the cycle that ended at `cycleEnd` if no report of it (or
    /// of a later cycle) went out: a gateway that tracks nothing still tells every hub, each
    /// cycle, that it is there.
    ///
    /// A cycle that ends ahead of the wall clock is not announced: a simulated source waiting for
    /// its scenario's start stands at that start, and a report claiming a time ahead of the
    /// gateway's clock would teach the hub a wrong offset for it (`GatewayClock`), so that its
    /// real reports later land in cycles already fused.
    package func heartbeat(cycleEnd: Timestamp) {
        guard cycleEnd <= wallClock() + .seconds(1) else { return }
        reports.heartbeat(cycleEnd: cycleEnd, cycleLength: cycleLength) { bucket, report in send(report, bucket: bucket) }
    }

    private func send(_ report: [UInt8], bucket: Int) {
        let sent: Bool
        if let key = settings.key {
            // Strictly increasing, and the wall clock's nanoseconds where it allows: a hub takes
            // each sequence once, and none from outside its window.
            sequence = max(sequence + 1, UInt64(clamping: wallClock().nanosecondsSinceEpoch))
            let sealed = SignedReport.seal(report, sequence: sequence, key: key)
            sent = sealed.withUnsafeBytes { payload in client.publish(topic: topics[bucket], payload: payload) }
        } else {
            sent = report.withUnsafeBytes { payload in client.publish(topic: topics[bucket], payload: payload) }
        }
        if !sent {
            if droppedInOutage == 0 {
                let broker = client.broker
                logger.warning(
                    "site: the broker \(broker) is unreachable; this cycle's reports are dropped, and so on until it is back (the hub misses this gateway meanwhile; its own alerts and sinks go on)"
                )
            }
            droppedInOutage += 1
        } else if droppedInOutage > 0 {
            logger.notice("site: the broker \(client.broker) is reachable again; \(droppedInOutage) reports were dropped")
            droppedInOutage = 0
        }
    }
}
