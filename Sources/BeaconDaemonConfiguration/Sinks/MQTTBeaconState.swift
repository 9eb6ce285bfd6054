import BeaconCore
import BeaconMQTT
import BeaconPipeline
import Synchronization

/// Publishes each beacon's presence, retained, to `beacond/<gateway>/beacons/<id>` through an
/// MQTT sink's connection, and (when configured) a Home Assistant discovery document per beacon
/// the first time it is seen; on ``finish()`` it closes the connection with `offline` on the
/// status topic.
///
/// Presence is state, not an event: only its latest value matters, so it does not go through
/// the outbox; the sink republishes the latest payload of every topic after a reconnection.
final class MQTTBeaconState: BeaconStateObserver {
    let sink: MQTTSink
    let settings: MQTTSinkSettings
    private let announced = Mutex<Set<BeaconID>>([])

    init(sink: MQTTSink, settings: MQTTSinkSettings) {
        self.sink = sink
        self.settings = settings
    }

    func observe(_ changes: [BeaconPresence]) {
        guard settings.beaconState else { return }
        for change in changes {
            if let prefix = settings.homeAssistantPrefix, announced.withLock({ $0.insert(change.id).inserted }) {
                sink.publishRetained(topic: discoveryTopic(change.id, prefix: prefix), payload: discoveryDocument(change.id))
            }
            sink.publishRetained(topic: stateTopic(change.id), payload: change.json)
        }
    }

    func finish() async {
        await sink.close()
    }

    /// `beacond/<gateway>/beacons/ibeacon:UUID:major:minor`.
    func stateTopic(_ id: BeaconID) -> String { "\(settings.beaconTopicPrefix)/\(id)" }

    /// `beacond_<gateway>_<id>` with every character outside `[A-Za-z0-9_-]` made `_`.
    func uniqueID(_ id: BeaconID) -> String {
        String("beacond_\(settings.gateway)_\(id)".map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" })
    }

    /// `<prefix>/sensor/<unique id>/config`.
    func discoveryTopic(_ id: BeaconID, prefix: String) -> String { "\(prefix)/sensor/\(uniqueID(id))/config" }

    /// A Home Assistant MQTT discovery document: a sensor whose state is the beacon's proximity
    /// band (or `away`), with the whole presence as attributes, on a device per gateway.
    func discoveryDocument(_ id: BeaconID) -> String {
        var json = JSONWriter()
        json.object { object in
            object.member("name", "Beacon \(id.kind == .eddystoneUID ? id.eddystoneInstanceHex : "\(id.major)/\(id.minor)")")
            object.member("unique_id", uniqueID(id))
            object.member("state_topic", stateTopic(id))
            object.member("value_template", "{{ value_json.state }}")
            object.member("json_attributes_topic", stateTopic(id))
            object.member("icon", "mdi:bluetooth")
            if let status = settings.connection.statusTopic { object.member("availability_topic", status) }
            object.key("device")
            object.object { device in
                device.key("identifiers")
                device.array { $0.value("beacond_\(settings.gateway)") }
                device.member("name", "beacond \(settings.gateway)")
                device.member("manufacturer", "beacond")
                device.member("model", "BLE beacon gateway")
            }
        }
        return json.string
    }
}
