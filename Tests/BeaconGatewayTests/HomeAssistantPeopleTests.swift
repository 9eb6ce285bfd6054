import BeaconCore
import BeaconPipeline
import BeaconTestSupport
import Foundation
import Testing

@testable import BeaconDaemonConfiguration

/// People in Home Assistant, over a real broker: each person a device tracker whose state is their
/// room (from what they carry), each room a sensor counting the people in it.
@Suite("Home Assistant: people and rooms over mosquitto", .serialized)
struct HomeAssistantPeopleTests {
    typealias HA = HomeAssistantMQTTTests
    static let phone = BeaconID.device(named: "ada-phone")!
    static let watch = BeaconID.device(named: "ada-watch")!

    @Test("Ada follows her watch when her phone stays on the desk; the rooms count her; away she is not_home")
    func personAndRooms() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        var settings = HA.settings(
            broker, named: [NamedBeacon(id: Self.phone, name: "Ada's phone"), NamedBeacon(id: Self.watch, name: "Ada's watch")])
        settings.people = [Person(name: "Ada", members: [Self.phone, Self.watch])]
        settings.rooms = ["office", "kitchen"]
        let observer = try #require(try settings.makeSink().stateObserver as? MQTTBeaconState)
        await HA.waitUntilOnline(broker)
        let tracker = "homeassistant/device_tracker/beacond_hub_person_ada/tracker/config"
        let discovery = try await HA.retained(broker, "homeassistant/#", id: "people-ha") { $0[tracker] != nil && $0.count >= 3 }
        let document = try #require(discovery[tracker])
        #expect(document.contains(#""state_topic":"beacond/hub/people/ada/location""#), "\(document)")
        #expect(document.contains(#""name":"Ada""#))
        #expect(
            discovery["homeassistant/sensor/beacond_hub_room_kitchen/people/config"]?.contains(
                #""state_topic":"beacond/hub/rooms/kitchen/people""#) == true)

        // Both in the office, then the watch walks to the kitchen.
        observer.observe([HA.presence(Self.phone, room: "office"), HA.presence(Self.watch, room: "office")])
        var watchMoved = HA.presence(Self.watch, room: "kitchen")
        watchMoved.lastSeen = HA.time + .seconds(60)
        observer.observe([watchMoved])
        let inKitchen = try await HA.retained(broker, "beacond/hub/+/+/+", id: "people-kitchen") {
            $0["beacond/hub/people/ada/location"] == "kitchen" && $0["beacond/hub/rooms/kitchen/people"] == "1"
        }
        #expect(inKitchen["beacond/hub/people/ada/location"] == "kitchen", "\(inKitchen)")
        #expect(inKitchen["beacond/hub/rooms/kitchen/people"] == "1")
        #expect(inKitchen["beacond/hub/rooms/office/people"] == "0")

        // Both gone: not_home, and the kitchen is empty.
        observer.observe([HA.presence(Self.phone, room: nil, present: false), HA.presence(Self.watch, room: nil, present: false)])
        let away = try await HA.retained(broker, "beacond/hub/+/+/+", id: "people-away") {
            $0["beacond/hub/people/ada/location"] == "not_home"
        }
        #expect(away["beacond/hub/people/ada/location"] == "not_home", "\(away)")
        #expect(away["beacond/hub/rooms/kitchen/people"] == "0")
        await observer.finish()
    }

    @Test("a person no longer in people: has their tracker removed at the next start (the ledger remembers them)")
    func removedPersonCleared() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let ledger = broker.directory.appendingPathComponent("state.sqlite.homeassistant.hub").path
        let tracker = "homeassistant/device_tracker/beacond_hub_person_ada/tracker/config"
        var settings = HA.settings(broker, named: [NamedBeacon(id: Self.phone, name: "Ada's phone")], ledger: ledger)
        settings.people = [Person(name: "Ada", members: [Self.phone])]
        let first = try #require(try settings.makeSink().stateObserver as? MQTTBeaconState)
        let announced = try await HA.retained(broker, "homeassistant/#", id: "ledger-before") { $0[tracker] != nil }
        #expect(announced[tracker] != nil)
        await first.finish()
        #expect(try String(contentsOfFile: ledger, encoding: .utf8).contains("person:Ada\n"))

        // The next start without her: her tracker's document and state are cleared, the phone stays named.
        settings.people = []
        let second = try #require(try settings.makeSink().stateObserver as? MQTTBeaconState)
        #expect(second.notes.contains { $0.contains("Ada is no longer in people:") }, "\(second.notes)")
        let after = try await HA.retained(broker, "#", id: "ledger-after") { $0[tracker] == nil }
        #expect(after[tracker] == nil && after["beacond/hub/people/ada/location"] == nil, "\(after.keys.sorted())")
        #expect(after.keys.contains { $0.contains("beacond_hub_device_ada-phone") || $0.contains("ada-phone") })
        #expect(try !String(contentsOfFile: ledger, encoding: .utf8).contains("person:"))
        await second.finish()
    }
}
