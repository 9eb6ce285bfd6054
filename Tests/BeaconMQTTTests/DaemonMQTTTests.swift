import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacond run` with an `mqtt` sink, end to end: the lobby scenario's events reach a real broker.
@Suite("beacond run with an MQTT sink", .serialized)
struct DaemonMQTTTests {
    static var beacond: URL { URL(fileURLWithPath: TestPaths.beacond) }

    static var lobby: String { TestPaths.scenario("lobby") }

    @Test("the created and delivered events of the lobby visitor arrive on beacond/lobby/alerts")
    func endToEnd() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let subscriber = try await MosquittoSubscriber(broker, topic: "beacond/lobby/alerts", id: "daemon-sub", count: 2)

        let configuration = broker.directory.appendingPathComponent("gateway.yaml")
        try Data(
            """
            source: simulate:\(Self.lobby)
            sinks:
              - {type: mqtt, host: 127.0.0.1, port: \(broker.port), gateway: lobby, timeout: 5s}
            alerts:
              - id: lobby-dwell
                match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}
                strategy: time
                parameters: {dwell: 60s, gap: 10s, maxTimeBeforeReset: 60s}
                content: {title: Welcome, message: Hello}

            """.utf8
        ).write(to: configuration)
        let daemon = Process()
        daemon.executableURL = Self.beacond
        daemon.arguments = ["run", "--config", configuration.path]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        await waitForExit(daemon)
        #expect(daemon.terminationStatus == 0)
        let lines = await subscriber.readToEnd().split(separator: "\n")
        // The lobby visitor (minor 1) dwells 60 s from 09:00:01: created and delivered at 09:01:01 (Simulator/Scenarios/lobby.yaml).
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(#"{"event":"created","alert":"lobby-dwell""#) == true)
        #expect(lines.last?.hasPrefix(#"{"event":"delivered","alert":"lobby-dwell""#) == true)
        #expect(lines.allSatisfy { $0.contains(#""scheduledFor":"2025-01-01T09:01:01.000Z""#) })
    }

    /// Runs `mosquitto_sub` until it has printed `count` messages (`-v`: topic and payload).
    static func subscribe(_ broker: MosquittoBroker, topic: String, count: Int, id: String) async throws -> [String: String] {
        // Retained messages come to a subscriber whenever it subscribes: no need to wait first.
        let output = try await MosquittoSubscriber(
            broker, topic: topic, id: id, count: count, arguments: ["-v"],
            waitForSubscription: false
        ).readToEnd()
        var messages: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            messages[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return messages
    }

    static func configuration(
        _ broker: MosquittoBroker, speed: String, extra: String = "", alerts: String = "alerts: []"
    ) throws -> URL {
        let configuration = broker.directory.appendingPathComponent("gateway-state.yaml")
        try Data(
            """
            source: {simulate: \(Self.lobby), speed: \(speed)}
            sinks:
              - {type: mqtt, host: 127.0.0.1, port: \(broker.port), gateway: lobby, timeout: 5s\(extra)}
            \(alerts)

            """.utf8
        ).write(to: configuration)
        return configuration
    }

    /// The lobby has five beacons (Simulator/Scenarios/lobby.yaml): visitors 1 and 2
    /// (5A4BCFCE…:1:1 and :1:2), the entrance and the lift (E2C56DB5…:10:1 and :10:2), and
    /// the Eddystone poster (0102030405060708090a / 0000000000aa). Visitor 2 crosses the lobby
    /// from 20 s to about 30 s and is forgotten 30 s later (the default retention): away by the
    /// end at 2 min; visitor 1 is still there. Both visitors are named, the others are not.
    @Test(
        "each beacon's state is retained under beacond/lobby/beacons/<id>; Home Assistant gets the named ones only, and their alert as an event; the status ends offline"
    )
    func retainedBeaconState() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let visitor1 = "ibeacon:5A4BCFCE-174E-4BAC-A814-092E77F6B7E5:1:1"
        let visitor2 = "ibeacon:5A4BCFCE-174E-4BAC-A814-092E77F6B7E5:1:2"
        let events = try await MosquittoSubscriber(
            broker, topic: "beacond/lobby/beacons/\(visitor1)/alert", id: "event-sub", count: 1)
        let configuration = try Self.configuration(
            broker, speed: "max", extra: ", homeAssistant: {roomTopic: rooms}",
            alerts: """
                beacons:
                  - {id: \(visitor1), name: Visitor one, tags: [visitor]}
                  - {id: \(visitor2), name: Visitor two, tags: [visitor]}
                alerts:
                  - {id: lobby-dwell, match: {tag: visitor}, strategy: time, parameters: {dwell: 60s, gap: 10s}}
                """)
        let daemon = Process()
        daemon.executableURL = Self.beacond
        daemon.arguments = ["run", "--config", configuration.path]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        await waitForExit(daemon)
        #expect(daemon.terminationStatus == 0)

        // Retained messages are delivered to a subscriber that comes after they were published.
        // Visitor 2 is named, so its state stays (away); the unnamed beacons still present at the
        // end were cleared at the orderly stop (issue 37: their topics would outlive the daemon).
        let topics = [visitor1, visitor2].flatMap { ["beacond/lobby/beacons/\($0)", "beacond/lobby/beacons/\($0)/location"] }
        let states = try await Self.subscribe(broker, topic: "beacond/lobby/beacons/#", count: topics.count, id: "state-sub")
        #expect(Set(states.keys) == Set(topics))
        // Everything retained under the state topics: the broker sends it at the subscription,
        // before anything published after it, so a marker published once subscribed ends the list.
        let all = try await MosquittoSubscriber(
            broker, topic: "beacond/lobby/beacons/+", id: "all-sub", count: 100, arguments: ["-v"])
        let marker = Process()
        marker.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
        marker.arguments = [
            "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "beacond/lobby/beacons/end-of-retained", "-m", "end",
        ]
        try marker.run()
        await waitForExit(marker)
        let lines = LineReader(all.output)
        #expect(await lines.line(containing: "end-of-retained") != nil)
        let retained = Set(
            lines.lines.map { String($0.split(separator: " ", maxSplits: 1)[0]) }.filter { !$0.hasSuffix("end-of-retained") })
        #expect(retained == Set([visitor1, visitor2].map { "beacond/lobby/beacons/\($0)" }), "\(retained)")
        #expect(states["beacond/lobby/beacons/\(visitor2)"]?.contains(#""state":"away","present":false"#) == true)
        #expect(
            states["beacond/lobby/beacons/\(visitor1)"]?.hasPrefix(
                #"{"id":"\#(visitor1)","name":"Visitor one","tags":["visitor"],"state":""#) == true)
        #expect(states["beacond/lobby/beacons/\(visitor1)"]?.contains(#""present":true"#) == true)
        #expect(states["beacond/lobby/beacons/\(visitor1)/location"] == "home")
        #expect(states["beacond/lobby/beacons/\(visitor2)/location"] == "not_home")

        // Two named beacons × (tracker, proximity, distance, alert) on a gateway.
        let discovery = try await Self.subscribe(broker, topic: "homeassistant/+/+/+/config", count: 8, id: "ha-sub")
        let unique = "beacond_lobby_ibeacon_5A4BCFCE-174E-4BAC-A814-092E77F6B7E5_1_1"
        #expect(
            Set(discovery.keys.filter { $0.contains(unique) }) == [
                "homeassistant/device_tracker/\(unique)/tracker/config", "homeassistant/sensor/\(unique)/proximity/config",
                "homeassistant/sensor/\(unique)/distance/config", "homeassistant/event/\(unique)/alert/config",
            ])
        #expect(discovery.keys.allSatisfy { $0.contains("_1_1/") || $0.contains("_1_2/") }, "\(discovery.keys)")
        let tracker = try #require(discovery["homeassistant/device_tracker/\(unique)/tracker/config"])
        #expect(tracker.contains(#""state_topic":"beacond/lobby/beacons/\#(visitor1)/location""#))
        #expect(tracker.contains(#""source_type":"bluetooth_le""#))
        #expect(tracker.contains(#""availability_topic":"beacond/lobby/status""#))
        #expect(tracker.contains(#""name":"Visitor one""#))
        let event = try #require(discovery["homeassistant/event/\(unique)/alert/config"])
        #expect(event.contains(#""event_types":["lobby-dwell"]"#))

        // Visitor 1's dwell alert, delivered, as the event entity's message.
        let fired = await events.readToEnd()
        #expect(fired.hasPrefix(#"{"event_type":"lobby-dwell","event":"delivered","alert":"lobby-dwell""#), "\(fired)")
        #expect(fired.contains(#""name":"Visitor one""#))

        let status = try await Self.subscribe(broker, topic: "beacond/lobby/status", count: 1, id: "status-sub")
        #expect(status["beacond/lobby/status"] == "offline")
    }

    @Test("the status is online while the daemon runs, and the broker publishes the last will offline when it is killed")
    func lastWill() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let subscriber = try await MosquittoSubscriber(broker, topic: "beacond/lobby/status", id: "will-sub", count: 2)

        let daemon = Process()
        daemon.executableURL = Self.beacond
        daemon.arguments = ["run", "--config", try Self.configuration(broker, speed: "1").path] // two minutes: killed long before
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer {
            if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) }
            reapWhenExited(daemon)
        }
        let reader = LineReader(subscriber.output)
        #expect(await reader.read(until: ["online"]) == ["online"])
        kill(daemon.processIdentifier, SIGKILL)
        await waitForExit(daemon)
        #expect(await reader.read(until: ["offline"]) == ["online", "offline"])
    }
}
