import BeaconCore
import BeaconMQTT
import BeaconSite

/// A gateway's side of a site: after each ranging cycle, one report per bucket of the beacons it
/// tracks, published with QoS 0 to `<prefix>/<site>/records/<bucket>/<gateway>`.
///
/// Runs on the pipeline's task (its ``publish(_:)`` is the pipeline's cycle observer). It never
/// waits: while the broker is away reports are dropped and counted, and the gateway's own
/// ranging, alerts and sinks go on as before.
final class SitePublisher: @unchecked Sendable {
    // `@unchecked`: the encoders are used by the pipeline's task only; the client is thread-safe.
    let settings: SiteSettings
    let client: MQTTSiteClient
    private var encoders: [GatewayReportEncoder]
    private var topics: [String]
    private var cycleLength: Duration = .seconds(1)

    init(settings: SiteSettings, client: MQTTSiteClient) {
        self.settings = settings
        self.client = client
        encoders = (0..<settings.topics.bucketCount).map { _ in
            GatewayReportEncoder(gateway: settings.gateway, format: settings.format)
        }
        topics = (0..<settings.topics.bucketCount).map { settings.topics.recordsTopic(bucket: $0, gateway: settings.gateway) }
    }

    /// Connects to the site's broker (in the background).
    convenience init(settings: SiteSettings) throws(MQTTSinkError) {
        var options = settings.connection
        options.statusTopic = "\(settings.topics.prefix)/\(settings.topics.site)/gateways/\(settings.gateway)/status"
        let client = try MQTTSiteClient(
            host: settings.host, port: settings.port, options: options,
            clientID: "beacond-\(settings.topics.site)-\(settings.gateway)")
        self.init(settings: settings, client: client)
    }

    /// Publishes the cycle's records (every tracked beacon, those within their missed-scan grace
    /// included, flagged as unseen).
    func publish(_ update: RangingUpdate) {
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
        encoders[bucket].bytes.withUnsafeBytes { payload in _ = client.publish(topic: topics[bucket], payload: payload) }
        encoders[bucket].begin(time: time, cycleLength: cycleLength)
    }
}
