import BeaconCore
import Testing

@testable import BeaconSite

/// The room rule on outlined rooms (`RoomDecider.decide(_:shares:gateways:now:silence:)`), as a
/// table: rooms A and B on one floor, C on another; one cycle a second. Each row gives every
/// cycle's share of the posterior in A, B and C (and the rooms whose gateways are all offline)
/// and says what room is shown after each (`?` unknown).
@Suite("Room rule on outlined rooms: the posterior's majority, with a lead and the minimum dwell")
struct RoomDeciderSharesTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        /// Each cycle's shares of A, B and C.
        let cycles: [[Float]]
        var gateways = 3
        /// Each cycle's rooms whose gateways are all offline (`"A"`, `"AB"`; none when shorter).
        var offline: [String] = []
        /// The room shown after each cycle.
        let trace: String
        /// Room changes the rule counts.
        var changes = 0

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "the first majority takes its room at once", cycles: [[0.7, 0.2, 0]], trace: "A"),
        Row(
            name: "no room holds the majority: unknown, until one does",
            cycles: [[0.4, 0.4, 0.1], [0.45, 0.3, 0], [0.6, 0.3, 0]],
            trace: "? ? A"),
        Row(
            name: "another room's majority moves the beacon once it has lasted the minimum dwell (2 s)",
            cycles: [[0.9, 0.1, 0], [0.3, 0.7, 0], [0.3, 0.7, 0], [0.2, 0.8, 0]], trace: "A A A B", changes: 1),
        Row(
            name: "a majority that does not last the dwell never moves it",
            cycles: [[0.9, 0.1, 0], [0.3, 0.7, 0], [0.8, 0.2, 0], [0.3, 0.7, 0], [0.9, 0.1, 0]], trace: "A A A A A"),
        Row(
            name: "split between rooms after it had one: unknown, and the room comes back without a change",
            cycles: [[0.9, 0.1, 0], [0.45, 0.45, 0], [0.8, 0.2, 0]], trace: "A ? A"),
        Row(
            name: "another floor's room waits for the floor's dwell (5 s)",
            cycles: [[0.9, 0, 0.1]] + Array(repeating: [0.1, 0, 0.9], count: 5) + [[0.1, 0, 0.9]], trace: "A A A A A A C",
            changes: 1),
        Row(
            name: "a majority that does not lead the room by 0.3 never moves it, however long it lasts",
            cycles: [[0.9, 0.1, 0]] + Array(repeating: [0.38, 0.62, 0], count: 5), trace: "A A A A A A"),
        Row(
            name: "one that leads by 0.3 does, after the dwell",
            cycles: [[0.9, 0.1, 0]] + Array(repeating: [0.34, 0.66, 0], count: 3), trace: "A A A B", changes: 1),
        Row(name: "fewer gateways than the rule's minimum: unknown", cycles: [[0.9, 0.1, 0]], gateways: 0, trace: "?"),
        Row(
            name: "its room's gateways all offline: unknown, the room kept, and shown again when one is back",
            cycles: Array(repeating: [0.9, 0.1, 0], count: 4), offline: ["", "A", "A", ""], trace: "A ? ? A"),
        Row(
            name: "the room is kept while offline: after it, a majority that does not lead it by 0.3 leaves it",
            cycles: [[0.9, 0.1, 0], [0.9, 0.1, 0], [0.38, 0.62, 0]], offline: ["", "A", ""], trace: "A ? A"),
        Row(
            name: "another room's gateways offline: nothing changes",
            cycles: Array(repeating: [0.9, 0.1, 0], count: 2), offline: ["B", "B"], trace: "A A"),
        Row(
            name: "a first majority in a room whose gateways are offline: unknown until they are back",
            cycles: Array(repeating: [0.8, 0.2, 0], count: 2), offline: ["A", ""], trace: "? A"),
    ]

    @Test("each row's trace", arguments: rows)
    func row(_ row: Row) {
        var rule = RoomHysteresis()
        rule.minimumGateways = 1
        let decider = RoomDecider(rule: rule, floorOfRoom: [0, 0, 1])
        var memory = RoomMemory()
        var shown: [String] = []
        var changes = 0
        for (second, shares) in row.cycles.enumerated() {
            let offline = second < row.offline.count ? row.offline[second] : ""
            let step = decider.decide(&memory, shares: shares, gateways: row.gateways, now: Int64(second) * 1_000_000_000) {
                offline.contains(["A", "B", "C"][$0]) ? .offline : .reporting
            }
            if step.changed { changes += 1 }
            shown.append(memory.unknown ? "?" : ["A", "B", "C"][Int(memory.shown)])
        }
        #expect(shown.joined(separator: " ") == row.trace)
        #expect(changes == row.changes)
    }

    @Test("the step says when the beacon's room is unknown because its gateways are all offline")
    func stepSaysTheRoomIsOffline() {
        let decider = RoomDecider(rule: RoomHysteresis(), floorOfRoom: [0, 0, 1])
        var memory = RoomMemory()
        let heard = decider.decide(&memory, shares: [0.8, 0.2, 0], gateways: 3, now: 0) { $0 == 1 ? .offline : .reporting }
        #expect(!heard.roomOffline && !memory.unknown, "another room's gateways are offline")
        let offline = decider.decide(&memory, shares: [0.8, 0.2, 0], gateways: 3, now: 1) { $0 == 0 ? .offline : .quiet }
        #expect(offline.roomOffline && memory.unknown)
        let split = decider.decide(&memory, shares: [0.45, 0.45, 0], gateways: 3, now: 2) { _ in .reporting }
        #expect(!split.roomOffline && memory.unknown, "unknown, but not for its gateways")
    }

    @Test("the confidence is the room's share of the posterior")
    func confidenceIsTheShare() {
        let decider = RoomDecider(rule: RoomHysteresis(), floorOfRoom: [0, 0, 1])
        var memory = RoomMemory()
        _ = decider.decide(&memory, shares: [0.72, 0.2, 0], gateways: 3, now: 0) { _ in .reporting }
        #expect(memory.confidence == 0.72)
    }
}
