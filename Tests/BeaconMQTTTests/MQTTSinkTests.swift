import BeaconCore
import BeaconMQTT
import BeaconSinks
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("MQTTSink against a real mosquitto broker on 127.0.0.1", .serialized)
struct MQTTSinkTests {
    static let events = (1...5).map { index in
        OutboundEvent(key: "door|beacon|delivered|\(index)", body: #"{"event":"delivered","n":\#(index)}"#)
    }

    @Test("events are published with QoS 1 to beacond/<gateway>/alerts; each delivery returns after the PUBACK")
    func publishes() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let topic = MQTTSink.defaultTopic(gateway: "gw1")
        #expect(topic == "beacond/gw1/alerts")

        let subscriber = try await MosquittoSubscriber(broker, topic: topic, id: "test-sub", count: Self.events.count)

        let sink = try MQTTSink(host: "127.0.0.1", port: broker.port, topic: topic, clientID: "beacond-test")
        for event in Self.events { try await sink.deliver(event) }
        #expect(await subscriber.readToEnd() == Self.events.map { $0.body + "\n" }.joined())
        await broker.logged("Received PUBLISH from beacond-test (d0, q1, r0, m\(Self.events.count)")
        await broker.logged("Sending PUBACK to beacond-test (m\(Self.events.count)")
        #expect(sink.name == "mqtt://127.0.0.1:\(broker.port)/beacond/gw1/alerts")
    }

    @Test("with no broker, a delivery fails after the timeout instead of being queued")
    func noBroker() async throws {
        let clock = ManualClock()
        let port = try MosquittoBroker.freePort()
        let sink = try MQTTSink(host: "127.0.0.1", port: port, topic: "beacond/gw1/alerts", timeout: .seconds(3), clock: clock)
        let delivery = Task { try await sink.deliver(Self.events[0]) }
        try #require(await eventually { clock.sleeperCount > 0 }, "the task under test never reached its wait")
        clock.advance(by: .seconds(3))
        await #expect(throws: MQTTSinkError.notConnected(broker: "127.0.0.1:\(port)", timeout: .seconds(3))) {
            try await delivery.value
        }
    }
}
