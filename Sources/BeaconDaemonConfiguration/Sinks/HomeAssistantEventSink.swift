import BeaconCore
import BeaconMQTT
import BeaconSinks
import Foundation

/// An MQTT sink that also hands each delivered alert of a named beacon to Home Assistant, as a
/// message on the beacon's `event` entity topic (``HomeAssistantDiscovery/alertTopic(_:)``).
///
/// Both publications belong to one delivery: the event is confirmed once the broker acknowledged
/// the events topic and, for a named beacon's `delivered` event, the entity's topic too; a
/// failure of either is retried by the outbox (at least once, like every event).
struct HomeAssistantEventSink: AlertSink {
    let sink: MQTTSink
    let discovery: HomeAssistantDiscovery
    let beacons: BeaconDirectory

    init(_ sink: MQTTSink, discovery: HomeAssistantDiscovery, beacons: BeaconDirectory) {
        self.sink = sink
        self.discovery = discovery
        self.beacons = beacons
    }

    var name: String { sink.name }
    var confirmsEachDelivery: Bool { true }

    func deliver(_ event: OutboundEvent) async throws {
        try await sink.deliver(event)
        guard let (alertID, beacon) = Self.deliveredAlert(event.body), beacons[beacon] != nil else { return }
        try await sink.publishAcknowledged(
            topic: discovery.alertTopic(beacon), payload: discovery.eventPayload(alertID: alertID, body: event.body))
    }

    /// The alert and beacon of a `delivered` event's JSON line; `nil` for other events (and for
    /// a gateway's lifecycle events, which name no beacon).
    static func deliveredAlert(_ body: String) -> (alertID: String, beacon: BeaconID)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
            object["event"] as? String == "delivered", let alertID = object["alert"] as? String,
            let beaconObject = object["beacon"] as? [String: Any],
            let beacon = try? BeaconID(jsonObject: beaconObject)
        else { return nil }
        return (alertID, beacon)
    }
}
