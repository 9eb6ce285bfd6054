import BeaconCore
import BeaconPipeline
import BeaconTestSupport
import Foundation
import Testing

@testable import BeaconDaemonConfiguration

/// What Home Assistant finds on a real broker: only the named beacons' entities, none for a
/// flood of made-up ids (and bounded state in the sink), and entities removed when a beacon is
/// no longer named.
@Suite("Home Assistant over mosquitto", .serialized)
struct HomeAssistantMQTTTests {
    static let anna = BeaconID.iBeacon(uuid: UUID(uuidString: "0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A")!, major: 1, minor: 1)
    static let ben = BeaconID.iBeacon(uuid: UUID(uuidString: "0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A")!, major: 1, minor: 2)
    static let time = Timestamp(nanosecondsSinceEpoch: 1_735_722_000_000_000_000) // 2025-01-01T09:00:00Z

    static func settings(_ broker: MosquittoBroker, named: [NamedBeacon], ledger: String? = nil) -> MQTTSinkSettings {
        var settings = MQTTSinkSettings(port: broker.port, gateway: "hub", homeAssistantPrefix: "homeassistant")
        settings.beacons = BeaconDirectory(named)
        settings.onHub = true
        settings.alertIDs = ["shop-browse"]
        settings.homeAssistantLedgerPath = ledger
        return settings
    }

    /// Every retained message under `topic`: what `mosquitto_sub` prints in 2 s (killed then; its
    /// `-W` would never fire, as a test's child process has SIGALRM blocked), line-buffered.
    static func retained(_ broker: MosquittoBroker, _ topic: String, id: String) async throws -> [String: String] {
        let port = broker.port
        let output = try await onOwnThread { () throws -> String in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = [
                "-s", "KILL", "2", "stdbuf", "-oL", "/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", "\(port)", "-t", topic,
                "-i", id, "-v",
            ]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            blockUntilExit(process)
            return String(decoding: data, as: UTF8.self)
        }
        var messages: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            messages[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return messages
    }

    /// The retained messages under `topic` once `expected` holds of them, looked at again with a
    /// new subscriber until it does (or a hang's ceiling): the broker applies a burst of
    /// publications — ten thousand clears — in its own time, and a busy machine shows them late.
    static func retained(
        _ broker: MosquittoBroker, _ topic: String, id: String, until expected: ([String: String]) -> Bool
    ) async throws -> [String: String] {
        let deadline = ContinuousClock.now + hangCeiling
        var messages = try await retained(broker, topic, id: id)
        while !expected(messages), ContinuousClock.now < deadline {
            messages = try await retained(broker, topic, id: id)
        }
        return messages
    }

    /// Returns once the sink is connected: it announces `online` (retained) on its status topic
    /// after it took the connection, so a transient publication from then on is not dropped.
    static func waitUntilOnline(_ broker: MosquittoBroker) async {
        let status = try? await MosquittoSubscriber(
            broker, topic: "beacond/hub/status", id: "online-\(UUID().uuidString.prefix(8))", count: 1,
            waitForSubscription: false)
        _ = await status?.readToEnd()
    }

    static func presence(_ id: BeaconID, room: String?, present: Bool = true) -> BeaconPresence {
        var presence = BeaconPresence(
            id: id, present: present, proximity: present ? .near : .unknown, distance: 2.5, lastSeen: time)
        presence.room = room
        presence.position = room.map { _ in BeaconPosition(x: 14.04, y: 5.51, z: 1.2, error: 0.8) }
        presence.roomConfidence = room.map { _ in 0.93 }
        presence.gatewayCount = present ? 3 : 0
        return presence
    }

    @Test("a flood of 10,000 unknown ids creates no Home Assistant entity, and the sink keeps only the named beacon's topics")
    func spoofedFlood() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let built = try Self.settings(broker, named: [NamedBeacon(id: Self.anna, name: "Anna's badge", tags: ["staff"])])
            .makeSink()
        let observer = try #require(built.stateObserver as? MQTTBeaconState)
        await Self.waitUntilOnline(broker)
        let made = (0..<10_000).map { BeaconID.iBeacon(uuid: UUID(), major: UInt16($0 % 65_536), minor: 7) }
        observer.observe(made.map { Self.presence($0, room: "shop") })
        observer.observe([Self.presence(Self.anna, room: "shop")])
        #expect(observer.retainedTopicCount == 5 + 2 + 10_000) // while the flood is present
        observer.observe(made.map { Self.presence($0, room: nil, present: false) })
        // Anna's five entities, her state and her location: nothing of the flood.
        #expect(observer.retainedTopicCount == 7)
        let discovery = try await Self.retained(broker, "homeassistant/#", id: "flood-ha") { $0.count == 5 }
        #expect(discovery.count == 5, "\(discovery.keys.sorted())")
        #expect(discovery.keys.allSatisfy { $0.contains("_1_1/") })
        let states = try await Self.retained(broker, "beacond/hub/beacons/#", id: "flood-state") { $0.count == 2 }
        #expect(Set(states.keys) == ["beacond/hub/beacons/\(Self.anna)", "beacond/hub/beacons/\(Self.anna)/location"])
        #expect(states["beacond/hub/beacons/\(Self.anna)/location"] == "shop")
        await observer.finish()
    }

    @Test("an orderly stop clears the retained state of the unnamed beacons still present; the named one's stays")
    func unnamedClearedAtStop() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let built = try Self.settings(broker, named: [NamedBeacon(id: Self.anna, name: "Anna's badge", tags: ["staff"])])
            .makeSink()
        let observer = try #require(built.stateObserver as? MQTTBeaconState)
        await Self.waitUntilOnline(broker)
        let made = (0..<1_000).map { BeaconID.iBeacon(uuid: UUID(), major: UInt16($0), minor: 7) }
        observer.observe(made.map { Self.presence($0, room: "shop") } + [Self.presence(Self.anna, room: "shop")])
        let present = try await Self.retained(broker, "beacond/hub/beacons/#", id: "present") { $0.count == 1_002 }
        #expect(present.count == 1_002)
        await observer.finish()
        let after = try await Self.retained(broker, "beacond/hub/beacons/#", id: "after-stop") { $0.count == 2 }
        #expect(Set(after.keys) == ["beacond/hub/beacons/\(Self.anna)", "beacond/hub/beacons/\(Self.anna)/location"])
    }

    @Test(
        "a hub's named beacon: one device with a tracker in the hub's room, room, distance and position sensors, an alert event")
    func hubDevice() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let rooms = try await MosquittoSubscriber(broker, topic: "room_presence/+", id: "room-sub", count: 1, arguments: ["-v"])
        let built = try Self.settings(broker, named: [NamedBeacon(id: Self.anna, name: "Anna's badge", tags: ["staff"])])
            .makeSink()
        let observer = try #require(built.stateObserver as? MQTTBeaconState)
        await Self.waitUntilOnline(broker)
        observer.observe([Self.presence(Self.anna, room: "shop")])
        let unique = "beacond_hub_ibeacon_0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A_1_1"
        let discovery = try await Self.retained(broker, "homeassistant/#", id: "hub-ha") { $0.count == 5 }
        #expect(
            Set(discovery.keys) == [
                "homeassistant/device_tracker/\(unique)/tracker/config", "homeassistant/sensor/\(unique)/room/config",
                "homeassistant/sensor/\(unique)/distance/config", "homeassistant/sensor/\(unique)/position/config",
                "homeassistant/event/\(unique)/alert/config",
            ])
        let tracker = try #require(discovery["homeassistant/device_tracker/\(unique)/tracker/config"])
        #expect(
            tracker
                == #"{"unique_id":"\#(unique)_tracker","json_attributes_topic":"beacond/hub/beacons/ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1","availability_topic":"beacond/hub/status","name":null,"state_topic":"beacond/hub/beacons/ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1/location","source_type":"bluetooth_le","payload_home":"home","payload_not_home":"not_home","icon":"mdi:account-badge","device":{"identifiers":["\#(unique)"],"name":"Anna's badge","manufacturer":"beacond","model":"BLE beacon (ibeacon)","serial_number":"ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1","via_device":"beacond_hub"}}"#
        )
        let event = try #require(discovery["homeassistant/event/\(unique)/alert/config"])
        #expect(
            event.contains(
                #""state_topic":"beacond/hub/beacons/ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1/alert","event_types":["shop-browse"]"#
            ))
        let state = try await Self.retained(broker, "beacond/hub/beacons/#", id: "hub-state") {
            $0["beacond/hub/beacons/\(Self.anna)/location"] == "shop" && $0["beacond/hub/beacons/\(Self.anna)"] != nil
        }
        #expect(state["beacond/hub/beacons/\(Self.anna)/location"] == "shop")
        #expect(
            state["beacond/hub/beacons/\(Self.anna)"]
                == #"{"id":"ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1","name":"Anna's badge","tags":["staff"],"state":"near","present":true,"proximity":"near","distance":2.5,"lastSeen":"2025-01-01T09:00:00.000Z","room":"shop","x":14.04,"y":5.51,"confidence":0.93,"gateways":3}"#
        )
        #expect(
            await rooms.readToEnd()
                == #"room_presence/shop {"id":"ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1","name":"Anna's badge","distance":2.50}"#
                + "\n")
        // Away: not_home.
        observer.observe([Self.presence(Self.anna, room: nil, present: false)])
        let away = try await Self.retained(broker, "beacond/hub/beacons/+/location", id: "hub-away") {
            $0["beacond/hub/beacons/\(Self.anna)/location"] == "not_home"
        }
        #expect(away["beacond/hub/beacons/\(Self.anna)/location"] == "not_home")
        await observer.finish()
    }

    @Test("a beacon no longer named at the next start has its entities and state removed (empty retained documents)")
    func unnamedAtRestart() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let ledger = broker.directory.appendingPathComponent("state.sqlite.homeassistant.hub").path
        let both = [NamedBeacon(id: Self.anna, name: "Anna"), NamedBeacon(id: Self.ben, name: "Ben")]
        let first = try #require(
            try Self.settings(broker, named: both, ledger: ledger).makeSink().stateObserver as? MQTTBeaconState)
        first.observe([Self.presence(Self.ben, room: "hall")])
        await first.finish()
        #expect(try await Self.retained(broker, "homeassistant/#", id: "before") { $0.count == 10 }.count == 10)
        #expect(try String(contentsOfFile: ledger, encoding: .utf8) == "\(Self.anna)\n\(Self.ben)\n")

        let second = try #require(
            try Self.settings(broker, named: [both[0]], ledger: ledger).makeSink().stateObserver as? MQTTBeaconState)
        #expect(second.notes == ["homeAssistant: \(Self.ben) is no longer named; its entities are removed"])
        await second.finish()
        let after = try await Self.retained(broker, "homeassistant/#", id: "after") { $0.count == 5 }
        #expect(after.count == 5 && after.keys.allSatisfy { $0.contains("_1_1/") }, "\(after.keys.sorted())")
        #expect(try await Self.retained(broker, "beacond/hub/beacons/#", id: "after-state") { $0.isEmpty }.isEmpty)
        #expect(try String(contentsOfFile: ledger, encoding: .utf8) == "\(Self.anna)\n")
    }
}
