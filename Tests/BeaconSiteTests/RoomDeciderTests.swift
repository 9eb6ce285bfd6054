import BeaconCore
import Testing

@testable import BeaconSite

/// The room rule alone (`RoomDecider`), as a table: rooms A and B on one floor, C on another;
/// one cycle a second. Each row gives every cycle's room scores and says what room is shown
/// after each (`?` unknown, `-` none).
@Suite("Room rule: hysteresis, floors, confidence and unknown, as a table")
struct RoomDeciderTests {
    /// One cycle's input.
    struct Cycle: Sendable {
        /// Scores of A, B and C, dBm; `nil`: not heard lately.
        var scores: [Float?]
        var gateways = 1
        /// What the silence of the beacon's room means, when it is not heard.
        var silence = RoomSilence.reporting
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        var rule = RoomHysteresis()
        let cycles: [Cycle]
        /// The room shown after each cycle.
        let trace: String

        var testDescription: String { name }
    }

    static let names = ["A", "B", "C"]
    static let floorOfRoom = [0, 0, 1]

    static func cycle(_ a: Float?, _ b: Float?, _ c: Float? = nil, gateways: Int = 1, silence: RoomSilence = .reporting) -> Cycle
    {
        Cycle(scores: [a, b, c], gateways: gateways, silence: silence)
    }

    static func run(_ row: Row) -> (trace: String, steps: [RoomStep], memory: RoomMemory) {
        let decider = RoomDecider(rule: row.rule, floorOfRoom: floorOfRoom)
        var memory = RoomMemory()
        var shown: [String] = []
        var steps: [RoomStep] = []
        for (second, cycle) in row.cycles.enumerated() {
            let scores = cycle.scores.map { $0 ?? -.infinity }
            let step = decider.decide(
                &memory, scores: scores, gateways: cycle.gateways, now: Int64(second) * 1_000_000_000
            ) { _ in cycle.silence }
            steps.append(step)
            shown.append(memory.unknown ? "?" : memory.shown >= 0 ? names[Int(memory.shown)] : "-")
        }
        return (shown.joined(separator: " "), steps, memory)
    }

    static let rows: [Row] = [
        Row(name: "the first evidence takes the best room at once", cycles: [cycle(-60, -70)], trace: "A"),
        Row(
            name: "a lead under the margin (4 dB) never moves the beacon",
            cycles: [cycle(-60, -70)] + Array(repeating: cycle(-70, -67), count: 5), trace: "A A A A A A"),
        Row(
            name: "a lead of the margin moves it once it has lasted the minimum dwell (2 s)",
            cycles: [cycle(-60, -70)] + Array(repeating: cycle(-70, -65), count: 4), trace: "A A A B B"),
        Row(
            name: "a tie never moves it, even with no margin and no dwell",
            rule: RoomHysteresis(margin: 0, minimumDwell: .zero),
            cycles: [cycle(-60, -70), cycle(-65, -65), cycle(-65, -65)], trace: "A A A"),
        Row(
            name: "a lead that breaks starts its dwell again",
            cycles: [cycle(-60, -70), cycle(-70, -65), cycle(-70, -65), cycle(-70, -68)]
                + Array(repeating: cycle(-70, -65), count: 3),
            trace: "A A A A A A B"),
        Row(
            name: "a room on another floor needs the floor margin (8 dB): 6 dB never moves it",
            cycles: [cycle(-60, nil, nil)] + Array(repeating: cycle(-70, nil, -64), count: 7),
            trace: "A A A A A A A A"),
        Row(
            name: "a room on another floor that leads by the floor margin takes it after the floor's dwell (5 s)",
            cycles: [cycle(-60, nil, nil)] + Array(repeating: cycle(-70, nil, -60), count: 6),
            trace: "A A A A A A C"),
        Row(
            name: "fewer gateways than minGateways: unknown, and the room is kept for when they return",
            rule: RoomHysteresis(minimumGateways: 2),
            cycles: [cycle(-60, -70, gateways: 2), cycle(-70, -60, gateways: 1), cycle(-60, -70, gateways: 2)],
            trace: "A ? A"),
        Row(
            name: "a best score under minRSSI (−95 dBm) places nothing",
            cycles: [cycle(-97, nil), cycle(-80, nil)], trace: "? A"),
        Row(
            name:
                "its room's gateways report without hearing it: the room scores −105, and a room heard at −90 takes over after the dwell",
            cycles: [cycle(-60, -70)] + Array(repeating: cycle(nil, -90), count: 3), trace: "A A A B"),
        Row(
            name: "its room's gateways are quiet (not reporting, not offline): the room keeps its last score",
            cycles: [cycle(-60, -70)] + Array(repeating: cycle(nil, -62, silence: .quiet), count: 4),
            trace: "A A A A A"),
        Row(
            name: "its room's gateways are all offline: unknown, until they hear it again",
            cycles: [cycle(-60, -70), cycle(nil, -90, silence: .offline), cycle(nil, -90, silence: .offline), cycle(-60, -70)],
            trace: "A ? ? A"),
        Row(
            name: "a confidence under minConfidence is unknown: 1 dB ahead is not sure, 15 dB is",
            rule: RoomHysteresis(minimumConfidence: 0.9),
            cycles: [cycle(-60, -61), cycle(-60, -75)], trace: "? A"),
        Row(
            name: "heard by no room's gateway lately, but still listed: the room stays as shown",
            cycles: [cycle(-60, -70), cycle(nil, nil)], trace: "A A"),
    ]

    @Test("the room shown after each cycle", arguments: rows)
    func table(_ row: Row) {
        #expect(Self.run(row).trace == row.trace)
    }

    @Test("a change says what to report: A's exit, B's entry, counted; a first room is not counted; unknown restarts the track")
    func steps() {
        let (_, steps, _) = Self.run(
            Row(
                name: "", rule: RoomHysteresis(minimumGateways: 2),
                cycles: [Self.cycle(-60, -70, gateways: 2)] + Array(repeating: Self.cycle(-70, -65, gateways: 2), count: 3)
                    + [Self.cycle(-70, -65, gateways: 1)],
                trace: ""))
        #expect(steps[0] == RoomStep(exited: -1, entered: 0, changed: false, unknown: false, restartsTrack: true))
        #expect(steps[1] == RoomStep())
        #expect(steps[3] == RoomStep(exited: 0, entered: 1, changed: true, changedFloor: false, restartsTrack: true))
        #expect(steps[4] == RoomStep(exited: 1, entered: -1, unknown: true, restartsTrack: true))
    }

    @Test("a change of floor is flagged; leaving reports the exit of the room shown and forgets everything")
    func floorAndLeave() {
        var (_, steps, memory) = Self.run(
            Row(name: "", cycles: [Self.cycle(-60, nil, nil)] + Array(repeating: Self.cycle(-70, nil, -60), count: 6), trace: ""))
        #expect(steps.last?.changed == true && steps.last?.changedFloor == true)
        #expect(memory.lastFloor == 1)
        let decider = RoomDecider(rule: RoomHysteresis(), floorOfRoom: Self.floorOfRoom)
        #expect(decider.leave(&memory) == 2)
        #expect(memory == RoomMemory())
    }

    @Test("confidence is Π Φ(lead / (σ·√2)) over the other rooms heard")
    func confidence() {
        // Φ(4 / (4·√2)) = Φ(0.7071) = 0.7602; × Φ(10 / 5.657) = Φ(1.7678) = 0.9615.
        let one = RoomDecider.confidence(of: 0, score: -60, scores: [-60, -64, -.infinity], sigma: 4)
        #expect(abs(one - 0.7602) < 0.0005, "\(one)")
        let two = RoomDecider.confidence(of: 0, score: -60, scores: [-60, -64, -70], sigma: 4)
        #expect(abs(two - 0.7602 * 0.9615) < 0.0005, "\(two)")
    }
}
