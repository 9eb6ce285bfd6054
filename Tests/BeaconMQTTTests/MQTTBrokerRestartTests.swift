import BeaconCore
import BeaconMQTT
import BeaconSinks
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The outbox and the MQTT sink across a broker restart: nothing is lost.
@Suite("MQTT: the broker restarted mid-run", .serialized)
struct MQTTBrokerRestartTests {
    static func events(_ range: ClosedRange<Int>) -> [OutboundEvent] {
        range.map { OutboundEvent(key: "restart|\($0)", body: #"{"event":"delivered","n":\#($0)}"#) }
    }

    /// Reads lines from `handle` until `expected` have all come (or the stream ends); repeats
    /// are kept in `lines`.
    /// Five events are delivered; the broker is killed (SIGKILL; it saved its sessions on each
    /// change, so the subscriber's session survives); five more
    /// are written to the outbox while it is down (deliveries fail, the dispatcher backs off);
    /// the broker comes back on the same port. The sink reconnects by itself and the dispatcher
    /// delivers the five: a persistent QoS 1 subscriber receives all ten, in order. (QoS 1 allows
    /// repeats: the broker itself may resend what it had not recorded as acknowledged when it
    /// was killed; no event may be missing.)
    @Test("events written while the broker is down are delivered once it is back; none is lost")
    func restart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-mqtt-restart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Run as root, mosquitto drops to its own user: it must be able to write its database here.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
        let configuration =
            "allow_anonymous true\npersistence true\npersistence_location \(directory.path)/\n"
            + "autosave_interval 1\nautosave_on_changes true\n"
        var broker = try await MosquittoBroker(configuration: configuration, directory: directory)
        let port = broker.port
        let topic = MQTTSink.defaultTopic(gateway: "restart")

        // Clean session off (-c): the broker keeps the subscription and queues QoS 1 messages
        // for it across the restart; mosquitto_sub reconnects by itself.
        let subscriber = try await MosquittoSubscriber(broker, topic: topic, id: "restart-sub", count: 100, arguments: ["-c"])

        let sink = try MQTTSink(host: "127.0.0.1", port: port, topic: topic, clientID: "beacond-restart", timeout: .seconds(2))
        let outbox = InMemoryOutbox(configuration: OutboxConfiguration(sinks: ["mqtt"], maxBacklog: 100))
        let dispatcher = OutboxDispatcher(
            sinkName: "mqtt", sink: sink, outbox: outbox,
            backoff: RetryBackoff(initial: .milliseconds(200), maximum: .seconds(1)))
        let delivering = Task { await dispatcher.run() }

        let reader = LineReader(subscriber.output)
        outbox.enqueue(Self.events(1...5))
        dispatcher.notify()
        var lines = await reader.read(until: Self.events(1...5).map(\.body))
        #expect(lines == Self.events(1...5).map(\.body))

        await broker.logged("Saving in-memory database", after: "restart-sub 1 \(topic)")
        await broker.stopped()
        outbox.enqueue(Self.events(6...10))
        dispatcher.notify()
        broker = try await MosquittoBroker(configuration: configuration, directory: directory, port: port)
        lines = await reader.read(until: Self.events(1...10).map(\.body))

        var firstSeen: [String] = []
        for line in lines where !firstSeen.contains(line) { firstSeen.append(line) }
        #expect(firstSeen == Self.events(1...10).map(\.body), "every event, in order (repeats allowed): \(lines)")
        await dispatcher.finishWhenDrained()
        await delivering.value
        #expect(try outbox.backlog(sink: "mqtt") == 0)
        broker.stop()
    }
}
