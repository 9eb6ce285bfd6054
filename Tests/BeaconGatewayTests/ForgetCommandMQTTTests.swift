import BeaconCore
import BeaconPipeline
import BeaconTestSupport
import Foundation
import Testing

@testable import BeaconDaemonConfiguration

/// `beacond forget` at a real broker: the retained topics a daemon published of a person — her
/// device's presence, its Home Assistant entities, her device tracker — are cleared (so Home
/// Assistant removes them) and another person's stay; an unreachable broker is said, with exit
/// status 69, while the state file is erased all the same.
@Suite("beacond forget: MQTT and Home Assistant", .serialized)
struct ForgetCommandMQTTTests {
    typealias HA = HomeAssistantMQTTTests
    typealias Forget = ForgetCommandTests

    static func sinks(port: Int, timeout: String = "5s") -> String {
        "[{type: mqtt, name: log, port: \(port), gateway: hub, homeAssistant: true, timeout: \(timeout)}]"
    }

    /// The broker's retained topics that name Ada (her person, her phone).
    static func adaTopics(_ messages: [String: String]) -> [String] {
        messages.filter { !$0.value.isEmpty && $0.key.lowercased().contains("ada") }.map(\.key).sorted()
    }

    @Test("Ada's retained topics and Home Assistant entities are cleared at the broker; Bo's stay")
    func clearsAdaAtTheBroker() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let directory = try Forget.directory(sinks: Self.sinks(port: broker.port))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // What a hub with this configuration publishes while Ada and Bo are in the hall.
        let configuration = try GatewayConfiguration.load(path: directory + "/gateway.yaml")
        let settings = try #require(configuration.sinks.first?.settings as? MQTTSinkSettings)
        let observer = try #require(try settings.makeSink().stateObserver as? MQTTBeaconState)
        await HA.waitUntilOnline(broker)
        observer.observe([HA.presence(Forget.ada, room: "hall"), HA.presence(Forget.bo, room: "hall")])
        let before = try await HA.retained(broker, "#", id: "forget-before") {
            $0["beacond/hub/people/ada/location"] == "hall" && $0["beacond/hub/people/bo/location"] == "hall"
        }
        let adaBefore = Self.adaTopics(before)
        #expect(adaBefore.contains("homeassistant/device_tracker/beacond_hub_person_ada/tracker/config"), "\(adaBefore)")
        #expect(adaBefore.contains("beacond/hub/beacons/device:ada-phone"), "\(adaBefore)")
        #expect(adaBefore.contains { $0.hasPrefix("homeassistant/sensor/") && $0.contains("ada") }, "\(adaBefore)")
        await observer.finish()

        let run = try await CommandRun.run(
            TestPaths.beacond, ["forget", "--config", "gateway.yaml", "Ada"], directory: directory)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(
            run.standardOutput.contains("retained topics cleared (Home Assistant removes their entities)"),
            "\(run.standardOutput)")

        let after = try await HA.retained(broker, "#", id: "forget-after") { Self.adaTopics($0).isEmpty }
        #expect(Self.adaTopics(after).isEmpty, "\(Self.adaTopics(after))")
        #expect(after["beacond/hub/people/bo/location"] == "hall", "Bo's tracker stays")
        #expect(after["beacond/hub/beacons/\(Forget.bo)"]?.isEmpty == false, "Bo's badge stays")
        #expect(after["homeassistant/device_tracker/beacond_hub_person_bo/tracker/config"] != nil)
        // The ledger of what was announced (beside the state file) keeps Bo and his badge only.
        let ledger = try #require(settings.homeAssistantLedgerPath)
        #expect(!Forget.anyHolds([ledger], "ada-phone"), "the Home Assistant ledger still names Ada's phone")
        #expect(!Forget.anyHolds([ledger], "person:Ada"), "the Home Assistant ledger still names Ada")
        #expect(Forget.anyHolds([ledger], "\(Forget.bo)") && Forget.anyHolds([ledger], "person:Bo"))
        #expect(run.standardOutput.contains("2 announced entries"), "\(run.standardOutput)")
    }

    @Test("a broker that cannot be reached: exit 69, the sink named, the state file erased all the same")
    func unreachableBroker() async throws {
        let port = try MosquittoBroker.freePort()
        let directory = try Forget.directory(sinks: Self.sinks(port: port, timeout: "1s"))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try await CommandRun.run(
            TestPaths.beacond, ["forget", "--config", "gateway.yaml", "Ada"], directory: directory)
        #expect(run.status == 69, "\(run.standardError)")
        #expect(run.standardError.contains("the broker of 'log' could not be reached"), "\(run.standardError)")
        #expect(run.standardError.contains("run the same command again once it is up"))
        #expect(run.standardOutput.contains("sink 'log' (127.0.0.1:\(port)): NOT cleared"), "\(run.standardOutput)")
        let state = directory + "/state.sqlite"
        #expect(!Forget.anyHolds([state, state + "-wal"], "ada-phone"), "the state file is erased before the brokers")
    }
}
