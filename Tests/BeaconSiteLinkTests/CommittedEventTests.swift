import BeaconCore
import BeaconSiteLink
import Testing

/// How a standby hub tells that the active hub committed the event it holds.
@Suite("CommittedEvent: matching two hubs' decisions")
struct CommittedEventTests {
    static let beacon = "ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1"

    static func key(_ alert: String = "shop-dwell", kind: String = "created", seconds: Int64) -> String {
        "\(alert)|\(beacon)|\(kind)|\(seconds * 1_000_000_000)"
    }

    @Test("a key is read back into its parts")
    func parse() throws {
        let event = try #require(CommittedEvent(key: Self.key(seconds: 100)))
        #expect(event.identity == "shop-dwell|\(Self.beacon)|created")
        #expect(event.time == Timestamp(seconds: 100))
    }

    @Test("a reminder's key (`…|due|attempt`) reads as its instance's time, and each attempt is an event of its own")
    func reminder() throws {
        let second = try #require(CommittedEvent(key: Self.key(kind: "delivered", seconds: 100) + "|2"))
        let third = try #require(CommittedEvent(key: Self.key(kind: "delivered", seconds: 100) + "|3"))
        #expect(second.time == Timestamp(seconds: 100))
        #expect(second.identity == "shop-dwell|\(Self.beacon)|delivered|attempt 2")
        #expect(!second.matches(third, within: .seconds(30)))
        let first = try #require(CommittedEvent(key: Self.key(kind: "delivered", seconds: 100)))
        #expect(!first.matches(second, within: .seconds(30)))
        #expect(
            second.matches(
                try #require(CommittedEvent(key: Self.key(kind: "delivered", seconds: 104) + "|2")), within: .seconds(5)))
    }

    @Test("not a key: no time, not a number, too long")
    func refused() {
        #expect(CommittedEvent(key: "shop-dwell") == nil)
        #expect(CommittedEvent(key: "a|b|created|soon") == nil)
        #expect(CommittedEvent(key: String(repeating: "x|", count: 600) + "1") == nil)
    }

    @Test("the same alert, beacon and kind within the window match; other kinds, alerts or times do not")
    func matching() throws {
        let held = try #require(CommittedEvent(key: Self.key(seconds: 100)))
        let window = Duration.seconds(5)
        #expect(held.matches(try #require(CommittedEvent(key: Self.key(seconds: 100))), within: .zero))
        #expect(held.matches(try #require(CommittedEvent(key: Self.key(seconds: 104))), within: window))
        #expect(held.matches(try #require(CommittedEvent(key: Self.key(seconds: 96))), within: window))
        #expect(!held.matches(try #require(CommittedEvent(key: Self.key(seconds: 106))), within: window))
        #expect(!held.matches(try #require(CommittedEvent(key: Self.key(kind: "delivered", seconds: 100))), within: window))
        #expect(!held.matches(try #require(CommittedEvent(key: Self.key("hall-dwell", seconds: 100))), within: window))
    }
}
