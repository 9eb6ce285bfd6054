import BeaconCore
import BeaconSinks
import BeaconTestSupport
import Foundation
import Testing

@testable import BeaconMQTT

/// The sink against a real mosquitto with a proxy in between that holds back chosen PUBACKs
/// (`MQTTDelayProxy`): a delivery is confirmed only by its own PUBACK, and the client's callback
/// context outlives the client.
@Suite("MQTTSink: acknowledgements and the client's lifetime", .serialized)
struct MQTTAcknowledgementTests {
    static func event(_ n: Int) -> OutboundEvent {
        OutboundEvent(key: "ack|\(n)", body: #"{"event":"delivered","n":\#(n)}"#)
    }

    @Test("a late PUBACK fails its delivery and never confirms the delivery that reuses its message id")
    func latePubackNeverConfirmsAnother() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        // Message id 1's PUBACKs are held until the test releases them: whatever the load, a
        // delivery waiting for one times out first (the sink waits 0.5 s).
        let proxy = try await MQTTDelayProxy(broker: broker, holding: [1])
        let sink = try MQTTSink(
            host: "127.0.0.1", port: proxy.port, topic: "beacond/ack/alerts", clientID: "beacond-ack",
            timeout: .milliseconds(500))

        // Delivery A is publication 1: its PUBACK is late, so A fails (and is retried by its outbox).
        await #expect(throws: MQTTSinkError.notAcknowledged(broker: "127.0.0.1:\(proxy.port)", timeout: .milliseconds(500))) {
            try await sink.deliver(Self.event(1))
        }
        #expect(await proxy.line(containing: "puback 1 delayed") != nil)
        // A's PUBACK now comes, after A gave up on it.
        proxy.release()
        #expect(await proxy.line(containing: "puback 1 forwarded") != nil)

        // libmosquitto's 16-bit ids come round: 65,534 retained publications take ids 2…65535,
        // so the next publication is id 1 again.
        for n in 2...65_535 { sink.publishRetained(topic: "beacond/ack/filler", payload: "\(n)") }

        // Delivery B is publication 1 again. A's PUBACK, which came long ago, must not confirm it:
        // B waits for its own, which is late too, so B fails as well (before the fix, B returned
        // at once, confirmed by A's PUBACK, and left its outbox without the broker having it).
        await #expect(throws: MQTTSinkError.notAcknowledged(broker: "127.0.0.1:\(proxy.port)", timeout: .milliseconds(500))) {
            try await sink.deliver(Self.event(2))
        }
        #expect(await proxy.line(containing: "puback 1 delayed") != nil)
    }

    @Test("a client's callback context is released once the client is destroyed, even with publications in flight")
    func contextReleasedAfterDestroy() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        var weakContexts: [() -> MQTTCallbackContext<MQTTSink>?] = []
        for n in 0..<20 {
            let sink = try MQTTSink(host: "127.0.0.1", port: broker.port, topic: "beacond/life/\(n)", clientID: "life-\(n)")
            try await sink.deliver(Self.event(n))
            // Publications still in flight while the sink goes away: their callbacks must find no sink.
            for k in 0..<50 { sink.publishRetained(topic: "beacond/life/\(n)/\(k)", payload: "x") }
            weak let context = sink.context
            weakContexts.append { context }
        }
        // Every sink is gone; each context goes once its client is destroyed on its stopping thread.
        #expect(await realWorkFinishes(within: hangCeiling) { weakContexts.allSatisfy { $0() == nil } })
    }
}
