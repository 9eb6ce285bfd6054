import BeaconCore
import BeaconDaemonConfiguration
import BeaconForeignNodes
import BeaconMQTT
import BeaconWire

/// A gateway standing in for an ESPresense node (`site.publish: espresense`): every beacon
/// advertisement it hears is published as the firmware publishes it
/// (`espresense/devices/<id>/<room>`, `ESPresenseMessage`), with the node's retained
/// `online`/`offline` status and last will on `espresense/rooms/<room>/status`. A hub with this
/// gateway as `kind: espresense` then ranges it like a real node — so a simulated site of
/// ESPresense nodes runs as separate processes.
///
/// Never waits: while the broker is away messages are dropped (counted by the client).
package final class ESPresenseNodePublisher: Sendable {
    let endpoint: ForeignNodeEndpoint
    let client: MQTTSiteClient

    /// Connects (in the background) to the site's broker as the node `endpoint`.
    /// `connected` is called on each connection (the daemon's readiness), on libmosquitto's
    /// network thread.
    package init(
        settings: SiteSettings, endpoint: ForeignNodeEndpoint, connected: @escaping @Sendable () -> Void = {}
    ) throws {
        self.endpoint = endpoint
        var options = settings.connection
        options.statusTopic = "\(endpoint.prefix)/rooms/\(endpoint.name)/status"
        client = try MQTTSiteClient(
            host: settings.host, port: settings.port, options: options, clientID: "beacond-espresense-\(endpoint.name)",
            onConnection: { isConnected, _ in if isConnected { connected() } })
    }

    /// Publishes each beacon advertisement of one H4 packet.
    package func publish(packet: UnsafeRawBufferPointer, at time: Timestamp) {
        try? HCIEventParser.forEachAdvertisingReport(inEvent: packet) { report in
            guard let sighting = BeaconSighting(report: report, timestamp: time), let rssi = sighting.rssi else { return }
            let message = ESPresenseMessage.device(
                sighting.id, rssi: rssi, measuredPower: sighting.measuredPower, address: sighting.address,
                room: endpoint.name, prefix: endpoint.prefix)
            message.payload.withUnsafeBytes { _ = client.publish(topic: message.topic, payload: $0) }
        }
    }

    /// Announces `offline` and disconnects.
    package func close() { client.close() }
}
