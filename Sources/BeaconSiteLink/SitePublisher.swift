import BeaconCore
import BeaconDaemonConfiguration
import BeaconMQTT
import BeaconSite
import BeaconSiteReport
import Logging

/// A gateway's side of a site: after each ranging cycle, one report per bucket of the beacons it
/// tracks, published with QoS 0 to `<prefix>/<site>/records/<bucket>/<gateway>`.
///
/// Runs on the pipeline's task (its ``publish(_:)`` is the pipeline's cycle observer). It never
/// waits: while the broker is away reports are dropped and counted, and the gateway's own
/// ranging, alerts and sinks go on as before. The first drop is logged as a warning, and the
/// return of the broker (with the count dropped meanwhile) as a notice.
package final class SitePublisher: @unchecked Sendable {
    // `@unchecked`: the encoders are used by the pipeline's task only; the client is thread-safe.
    let settings: SiteSettings
    let client: MQTTSiteClient
    private var encoders: [GatewayReportEncoder]
    private var topics: [String]
    private var cycleLength: Duration = .seconds(1)
    /// The sequence of the last signed report (``SignedReport``).
    private var sequence: UInt64 = 0
    /// The wall clock a signed report's sequence starts from.
    private let wallClock: @Sendable () -> Timestamp
    private let logger: Logger
    /// Reports dropped since the broker was last reachable.
    private var droppedInOutage = 0

    init(
        settings: SiteSettings, client: MQTTSiteClient, logger: Logger,
        wallClock: @escaping @Sendable () -> Timestamp = { WallClock().now }
    ) {
        self.wallClock = wallClock
        self.settings = settings
        self.client = client
        self.logger = logger
        encoders = (0..<settings.topics.bucketCount).map { _ in
            GatewayReportEncoder(gateway: settings.gateway, format: settings.format)
        }
        topics = (0..<settings.topics.bucketCount).map { settings.topics.recordsTopic(bucket: $0, gateway: settings.gateway) }
    }

    /// Connects to the site's broker (in the background).
    package convenience init(settings: SiteSettings, logger: Logger) throws(MQTTSinkError) {
        var options = settings.connection
        options.statusTopic = "\(settings.topics.prefix)/\(settings.topics.site)/gateways/\(settings.gateway)/status"
        let client = try MQTTSiteClient(
            host: settings.host, port: settings.port, options: options,
            clientID: "beacond-\(settings.topics.site)-\(settings.gateway)")
        self.init(settings: settings, client: client, logger: logger)
    }

    /// Publishes the cycle's records (every tracked beacon, those within their missed-scan grace
    /// included, flagged as unseen).
    package func publish(_ update: RangingUpdate) {
        guard !update.beacons.isEmpty else { return }
        cycleLength = update.time - update.cycleStart
        for bucket in encoders.indices { encoders[bucket].begin(time: update.time, cycleLength: cycleLength) }
        for beacon in update.beacons {
            let bucket = settings.topics.bucket(of: beacon.id)
            if encoders[bucket].isFull { flush(bucket, time: update.time) }
            encoders[bucket].append(GatewayRecord(beacon))
        }
        for bucket in encoders.indices where encoders[bucket].recordCount > 0 { flush(bucket, time: update.time) }
    }

    private func flush(_ bucket: Int, time: Timestamp) {
        encoders[bucket].finish()
        let sent: Bool
        if let key = settings.key {
            // Strictly increasing, and the wall clock's nanoseconds where it allows: a hub takes
            // each sequence once, and none from outside its window.
            sequence = max(sequence + 1, UInt64(clamping: wallClock().nanosecondsSinceEpoch))
            let sealed = SignedReport.seal(encoders[bucket].bytes, sequence: sequence, key: key)
            sent = sealed.withUnsafeBytes { payload in client.publish(topic: topics[bucket], payload: payload) }
        } else {
            sent = encoders[bucket].bytes.withUnsafeBytes { payload in client.publish(topic: topics[bucket], payload: payload) }
        }
        encoders[bucket].begin(time: time, cycleLength: cycleLength)
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
