import BeaconSinks
import Testing

@Suite("InMemorySink and MultiplexSink")
struct InMemorySinkTests {
    static let first = OutboundEvent(key: "a|1", body: #"{"n":1}"#)
    static let second = OutboundEvent(key: "a|2", body: #"{"n":2}"#, destination: "http://127.0.0.1:1/x")

    @Test("keeps accepted events in order and counts refusals")
    func records() async throws {
        let sink = InMemorySink()
        try await sink.deliver(Self.first)
        sink.setRefusing(true)
        await #expect(throws: SinkError.self) { try await sink.deliver(Self.second) }
        sink.setRefusing(false)
        try await sink.deliver(Self.second)
        #expect(sink.delivered == [Self.first, Self.second])
        #expect(sink.attempts == 3)
    }

    @Test("a multiplex delivers to every sink and fails if any refuses")
    func multiplex() async throws {
        let left = InMemorySink(name: "left")
        let right = InMemorySink(name: "right")
        let both = MultiplexSink([left, right])
        try await both.deliver(Self.first)
        right.setRefusing(true)
        await #expect(throws: SinkError.self) { try await both.deliver(Self.second) }
        try await both.flush()
        #expect(left.delivered == [Self.first, Self.second])
        #expect(right.delivered == [Self.first])
        #expect(left.flushes == 1 && right.flushes == 1)
        #expect(both.name == "multiplex(left, right)")
    }
}
