import BeaconCore
import BeaconPipeline

/// What Home Assistant is told about the named beacons, through MQTT discovery: the topics and
/// documents, and nothing else (`MQTTBeaconState` publishes them).
///
/// Each named beacon is one Home Assistant device with, under
/// `<prefix>/<component>/<unique id>/<object>/config`:
/// - `device_tracker/…/tracker`: its location topic holds the room a hub decided (or `home` on a
///   gateway, and `not_home` once the beacon is away);
/// - on a hub, `sensor/…/room`, `sensor/…/distance` and `sensor/…/position`; on a gateway,
///   `sensor/…/proximity` and `sensor/…/distance` — all read from the beacon's state topic, whose
///   JSON is every entity's attributes;
/// - `event/…/alert`: one Home Assistant event per delivered alert, `event_type` the alert's id;
/// - with the sink's `commands: true`, `button/…/acknowledge`: pressed, it acknowledges the
///   beacon's latest unanswered alert (its reminders stop).
///
/// Unnamed beacons get nothing: the set of entities is the configuration's `beacons:` list.
public struct HomeAssistantDiscovery: Hashable, Sendable {
    /// The discovery prefix (`homeassistant`).
    public var prefix: String
    /// The gateway's (or hub's) name in topics and unique ids.
    public var gateway: String
    /// Where each beacon's state is retained: `beacond/<gateway>/beacons`.
    public var beaconTopicPrefix: String
    /// The retained online/offline topic, the entities' availability.
    public var statusTopic: String?
    /// True on a site hub (rooms and positions), false on a gateway (proximity).
    public var onHub: Bool
    /// The alert ids an `event` entity announces as its `event_types`.
    public var alertIDs: [String]
    /// Where `mqtt_room` messages go (`room_presence`: `room_presence/<room>`), or `nil` for none.
    public var roomTopic: String?
    /// The daemon's command topics (`beacond/<gateway>/commands`) when it takes answers over MQTT:
    /// each beacon then gets an acknowledge button. `nil`: no button.
    public var commandTopic: String?
    /// The token the acknowledge button's press carries (`commands.tokens.home-assistant`), when
    /// the daemon takes only commands with a key or token; `nil`: none.
    public var commandToken: String?

    /// Creates the discovery of a gateway or hub.
    public init(
        prefix: String = "homeassistant", gateway: String, beaconTopicPrefix: String, statusTopic: String?,
        onHub: Bool = false, alertIDs: [String] = [], roomTopic: String? = "room_presence", commandTopic: String? = nil,
        commandToken: String? = nil
    ) {
        self.prefix = prefix
        self.gateway = gateway
        self.beaconTopicPrefix = beaconTopicPrefix
        self.statusTopic = statusTopic
        self.onHub = onHub
        self.alertIDs = alertIDs
        self.roomTopic = roomTopic
        self.commandTopic = commandTopic
        self.commandToken = commandToken
    }

    /// `beacond_<gateway>_<id>` with every character outside `[A-Za-z0-9_-]` made `_`.
    public func uniqueID(_ id: BeaconID) -> String {
        String("beacond_\(gateway)_\(id)".map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" })
    }

    /// `beacond/<gateway>/beacons/<id>`: the beacon's presence as JSON (retained).
    public func stateTopic(_ id: BeaconID) -> String { "\(beaconTopicPrefix)/\(id)" }
    /// `…/<id>/location`: the device tracker's state (retained): a room, `home` or `not_home`.
    public func locationTopic(_ id: BeaconID) -> String { "\(stateTopic(id))/location" }
    /// `…/<id>/alert`: the event entity's topic, one message per delivered alert.
    public func alertTopic(_ id: BeaconID) -> String { "\(stateTopic(id))/alert" }

    /// The entities of a beacon here: (component, object id).
    var entities: [(component: String, object: String)] {
        let common: [(component: String, object: String)] =
            onHub
            ? [
                ("device_tracker", "tracker"), ("sensor", "room"), ("sensor", "distance"), ("sensor", "position"),
                ("event", "alert"),
            ]
            : [("device_tracker", "tracker"), ("sensor", "proximity"), ("sensor", "distance"), ("event", "alert")]
        return commandTopic == nil ? common : common + [("button", "acknowledge")]
    }

    /// The discovery topic of one entity.
    public func configTopic(_ id: BeaconID, component: String, object: String) -> String {
        "\(prefix)/\(component)/\(uniqueID(id))/\(object)/config"
    }

    /// Every discovery topic a beacon may have (on a hub or a gateway), to clear them all.
    public func allConfigTopics(_ id: BeaconID) -> [String] {
        let objects = [
            ("device_tracker", "tracker"), ("sensor", "room"), ("sensor", "distance"), ("sensor", "position"),
            ("sensor", "proximity"), ("event", "alert"), ("button", "acknowledge"),
        ]
        return objects.map { configTopic(id, component: $0.0, object: $0.1) }
    }

    /// The retained discovery documents of a named beacon: (topic, payload).
    public func documents(for beacon: NamedBeacon) -> [(topic: String, payload: String)] {
        entities.map { entity in
            (configTopic(beacon.id, component: entity.component, object: entity.object), document(beacon, entity.object))
        }
    }

    /// The device tracker's state for `presence`: `not_home` once away; else the room on a hub
    /// (`home` while it cannot tell), `home` on a gateway.
    public func location(_ presence: BeaconPresence) -> String {
        guard presence.present else { return "not_home" }
        return onHub ? presence.room ?? "home" : "home"
    }

    /// The `mqtt_room` message of a present named beacon: `<roomTopic>/<room>` (the hub's room, or
    /// the gateway's name) with `{"id":…,"name":…,"distance":…}`; `nil` when away, roomless on a
    /// hub, or off.
    public func roomMessage(_ presence: BeaconPresence, name: String) -> (topic: String, payload: String)? {
        guard let roomTopic, presence.present, let room = onHub ? presence.room : gateway,
            !room.contains(where: { "/+#".contains($0) })
        else { return nil }
        var json = JSONWriter()
        json.object { object in
            object.member("id", presence.id.description)
            object.member("name", name)
            object.key("distance")
            object.value(presence.distance ?? 0, decimals: 2)
        }
        return ("\(roomTopic)/\(room)", json.string)
    }

    /// The event entity's message for an alert event's JSON line: the line with `event_type`
    /// (the alert's id) first, so Home Assistant fires `event_type` with the rest as attributes.
    public func eventPayload(alertID: String, body: String) -> String {
        var json = JSONWriter()
        json.object { $0.member("event_type", alertID) }
        let head = json.string.dropLast() // `{"event_type":"…"`
        return body.hasPrefix("{") && body.count > 2 ? head + "," + body.dropFirst() : head + "}"
    }
}
