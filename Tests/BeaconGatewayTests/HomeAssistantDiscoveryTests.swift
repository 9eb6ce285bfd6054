import BeaconCore
import BeaconPipeline
import Foundation
import Testing

@testable import BeaconDaemonConfiguration

/// The Home Assistant topics and payloads, worked out by hand.
@Suite("Home Assistant discovery")
struct HomeAssistantDiscoveryTests {
    static let anna = BeaconID.iBeacon(uuid: UUID(uuidString: "0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A")!, major: 1, minor: 1)
    static let hub = HomeAssistantDiscovery(
        gateway: "hub", beaconTopicPrefix: "beacond/hub/beacons", statusTopic: "beacond/hub/status", onHub: true,
        alertIDs: ["shop-browse"])
    static let time = Timestamp(nanosecondsSinceEpoch: 1_735_722_000_000_000_000)

    @Test("the device tracker's state: the hub's room, home while it cannot tell, not_home once away; home on a gateway")
    func location() {
        var presence = BeaconPresence(id: Self.anna, present: true, proximity: .near, lastSeen: Self.time)
        presence.room = "shop"
        #expect(Self.hub.location(presence) == "shop")
        presence.room = nil
        #expect(Self.hub.location(presence) == "home")
        var gateway = Self.hub
        gateway.onHub = false
        presence.room = "shop"
        #expect(gateway.location(presence) == "home")
        presence.present = false
        #expect(Self.hub.location(presence) == "not_home")
        #expect(gateway.location(presence) == "not_home")
    }

    @Test("mqtt_room: room_presence/<room> with id, name and distance; nothing while away or roomless on a hub")
    func roomMessage() {
        var presence = BeaconPresence(id: Self.anna, present: true, proximity: .near, distance: 3.14159, lastSeen: Self.time)
        #expect(Self.hub.roomMessage(presence, name: "Anna") == nil) // no room yet
        presence.room = "shop"
        let message = Self.hub.roomMessage(presence, name: "Anna")
        #expect(message?.topic == "room_presence/shop")
        #expect(message?.payload == #"{"id":"ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1","name":"Anna","distance":3.14}"#)
        var gateway = Self.hub
        gateway.onHub = false
        gateway.gateway = "lobby"
        #expect(gateway.roomMessage(presence, name: "Anna")?.topic == "room_presence/lobby")
        presence.present = false
        #expect(Self.hub.roomMessage(presence, name: "Anna") == nil)
        var off = Self.hub
        off.roomTopic = nil
        presence.present = true
        #expect(off.roomMessage(presence, name: "Anna") == nil)
    }

    @Test("an alert's event entity message is its JSON line with event_type first")
    func eventPayload() {
        #expect(
            Self.hub.eventPayload(alertID: "shop-browse", body: #"{"event":"delivered","alert":"shop-browse"}"#)
                == #"{"event_type":"shop-browse","event":"delivered","alert":"shop-browse"}"#)
    }

    @Test("only a delivered event with a beacon is an alert for Home Assistant")
    func deliveredAlert() throws {
        let delivered =
            #"{"event":"delivered","alert":"shop-browse","beacon":{"uuid":"0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A","major":1,"minor":1},"strategy":"time"}"#
        let alert = try #require(HomeAssistantEventSink.deliveredAlert(delivered))
        #expect(alert.alertID == "shop-browse" && alert.beacon == Self.anna)
        #expect(HomeAssistantEventSink.deliveredAlert(delivered.replacingOccurrences(of: "delivered", with: "created")) == nil)
        #expect(HomeAssistantEventSink.deliveredAlert(#"{"event":"gatewayOffline","gateway":"hall"}"#) == nil)
        #expect(HomeAssistantEventSink.deliveredAlert("not json") == nil)
    }

    @Test("unique ids keep [A-Za-z0-9_-]; a beacon's five hub entities, all seven topics to clear")
    func topics() {
        #expect(Self.hub.uniqueID(Self.anna) == "beacond_hub_ibeacon_0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A_1_1")
        let documents = Self.hub.documents(for: NamedBeacon(id: Self.anna, name: "Anna"))
        #expect(
            documents.map { $0.topic.split(separator: "/")[1] + "/" + $0.topic.split(separator: "/")[3] } == [
                "device_tracker/tracker", "sensor/room", "sensor/distance", "sensor/position", "event/alert",
            ])
        #expect(Self.hub.allConfigTopics(Self.anna).count == 7)
        #expect(Self.hub.alertTopic(Self.anna) == "beacond/hub/beacons/ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1/alert")
    }

    @Test("with the daemon's MQTT commands on, each beacon has an acknowledge button that answers its latest alert")
    func acknowledgeButton() throws {
        var discovery = Self.hub
        discovery.commandTopic = "beacond/hub/commands"
        let documents = discovery.documents(for: NamedBeacon(id: Self.anna, name: "Anna"))
        let button = try #require(documents.first { $0.topic.hasPrefix("homeassistant/button/") })
        #expect(
            button.topic == "homeassistant/button/beacond_hub_ibeacon_0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A_1_1/acknowledge/config"
        )
        let document = try #require(try JSONSerialization.jsonObject(with: Data(button.payload.utf8)) as? [String: Any])
        #expect(document["command_topic"] as? String == "beacond/hub/commands/acknowledge")
        #expect(
            document["payload_press"] as? String
                == #"{"beacon":"ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1","by":"home-assistant"}"#)
        #expect(!Self.hub.documents(for: NamedBeacon(id: Self.anna, name: "Anna")).contains { $0.topic.contains("/button/") })
    }

    @Test("with commands.tokens.home-assistant, the button's press carries the token (the daemon takes it from no one else)")
    func acknowledgeButtonWithToken() throws {
        var discovery = Self.hub
        discovery.commandTopic = "beacond/hub/commands"
        discovery.commandToken = "ha-token-0123456789abcdef"
        let documents = discovery.documents(for: NamedBeacon(id: Self.anna, name: "Anna"))
        let button = try #require(documents.first { $0.topic.hasPrefix("homeassistant/button/") })
        let document = try #require(try JSONSerialization.jsonObject(with: Data(button.payload.utf8)) as? [String: Any])
        let press = try #require(document["payload_press"] as? String)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(press.utf8)) as? [String: String])
        #expect(fields["token"] == "ha-token-0123456789abcdef")
        #expect(fields["beacon"] == "ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1")
    }
}
