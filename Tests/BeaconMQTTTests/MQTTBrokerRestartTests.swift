import BeaconCore
import BeaconMQTT
import BeaconSinks
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

    /// Reads lines from `pipe` until `count` have come (or the stream ends).
    static func readLines(_ count: Int, from handle: FileHandle, into lines: inout [String], buffer: inout Data) {
        while lines.count < count {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer = Data(buffer[buffer.index(after: newline)...])
            }
            if lines.count >= count { return }
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            buffer += chunk
        }
    }

    /// Five events are delivered; the broker is killed (SIGKILL; it saved its sessions on each
    /// change, so the subscriber's session survives); five more
    /// are written to the outbox while it is down (deliveries fail, the dispatcher backs off);
    /// the broker comes back on the same port. The sink reconnects by itself and the dispatcher
    /// delivers the five: a persistent QoS 1 subscriber receives all ten, in order, once each.
    @Test("events written while the broker is down are delivered once it is back; none is lost")
    func restart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-mqtt-restart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Run as root, mosquitto drops to its own user: it must be able to write its database here.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
        let configuration = "allow_anonymous true\npersistence true\npersistence_location \(directory.path)/\n"
            + "autosave_interval 1\nautosave_on_changes true\n"
        var broker = try MosquittoBroker(configuration: configuration, directory: directory)
        let port = broker.port
        let topic = MQTTSink.defaultTopic(gateway: "restart")

        // Clean session off (-c): the broker keeps the subscription and queues QoS 1 messages
        // for it across the restart; mosquitto_sub reconnects by itself.
        let subscriber = Process()
        subscriber.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        subscriber.arguments = ["-h", "127.0.0.1", "-p", String(port), "-t", topic, "-q", "1", "-i", "restart-sub", "-c",
                                "-C", "10"]
        let received = Pipe()
        subscriber.standardOutput = received
        try subscriber.run()
        defer { if subscriber.isRunning { kill(subscriber.processIdentifier, SIGKILL) } }
        broker.waitForLog("restart-sub 1 \(topic)")

        let sink = try MQTTSink(host: "127.0.0.1", port: port, topic: topic, clientID: "beacond-restart", timeout: .seconds(2))
        let outbox = InMemoryOutbox(configuration: OutboxConfiguration(sinks: ["mqtt"], maxBacklog: 100))
        let dispatcher = OutboxDispatcher(sinkName: "mqtt", sink: sink, outbox: outbox,
                                          backoff: RetryBackoff(initial: .milliseconds(200), maximum: .seconds(1)))
        let delivering = Task { await dispatcher.run() }

        var lines: [String] = []
        var buffer = Data()
        outbox.enqueue(Self.events(1...5))
        dispatcher.notify()
        Self.readLines(5, from: received.fileHandleForReading, into: &lines, buffer: &buffer)
        #expect(lines.count == 5)

        broker.waitForLog("Saving in-memory database", after: "restart-sub 1 \(topic)")
        broker.stop()
        outbox.enqueue(Self.events(6...10))
        dispatcher.notify()
        broker = try MosquittoBroker(configuration: configuration, directory: directory, port: port)
        Self.readLines(10, from: received.fileHandleForReading, into: &lines, buffer: &buffer)

        #expect(lines == Self.events(1...10).map(\.body))
        await dispatcher.finishWhenDrained()
        await delivering.value
        #expect(try outbox.backlog(sink: "mqtt") == 0)
        broker.stop()
    }
}
