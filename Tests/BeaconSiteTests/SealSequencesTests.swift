import Testing

@testable import BeaconSite

/// A signing gateway's seal sequences, alone (`SealSequences`): what a report's sequence must be.
@Suite("Seal sequences: above the last taken, never twice")
struct SealSequencesTests {
    @Test("in a replay every sequence taken raises the floor; one at or below it is refused, naming it")
    func replayRaisesTheFloor() {
        var seals = SealSequences()
        #expect(seals.refusal(of: 0) == .notAboveFloor(0))
        #expect(seals.refusal(of: 5) == nil)
        seals.take(5, clock: nil)
        #expect(seals.floor == 5)
        #expect(seals.refusal(of: 5) == .notAboveFloor(5))
        #expect(seals.refusal(of: 4) == .notAboveFloor(5))
        #expect(seals.refusal(of: 6) == nil)
    }

    @Test(
        "live, a seal ahead of the hub's clock is remembered, not made the floor: the gateway's next, behind it, is still taken")
    func aheadOfTheClock() {
        var seals = SealSequences()
        seals.take(100, clock: 150)
        #expect(seals.floor == 100)
        // Sealed at 200 by a clock ahead of the hub's (150): taken, but the floor stays.
        seals.take(200, clock: 150)
        #expect(seals.floor == 100 && seals.ahead == [200])
        #expect(seals.refusal(of: 200) == .taken)
        #expect(seals.refusal(of: 160) == nil, "the gateway's next report, behind the one ahead")
        // Once the hub's clock passes, a later seal raises the floor past the remembered one.
        seals.take(250, clock: 300)
        #expect(seals.floor == 250 && seals.ahead.isEmpty)
        #expect(seals.refusal(of: 200) == .notAboveFloor(250))
    }

    @Test("at most maxAhead are remembered: past that the floor rises to the oldest forgotten")
    func boundedMemory() {
        var seals = SealSequences()
        let ahead = (1...UInt64(SealSequences.maxAhead)).map { 1_000 + $0 }
        for sequence in ahead { seals.take(sequence, clock: 10) }
        #expect(seals.floor == 0 && seals.ahead.count == SealSequences.maxAhead)
        seals.take(2_000, clock: 10)
        #expect(seals.floor == 1_001, "the oldest remembered became the floor")
        #expect(seals.ahead.count == SealSequences.maxAhead)
        #expect(seals.refusal(of: 1_001) == .notAboveFloor(1_001))
        #expect(seals.refusal(of: 1_002) == .taken)
    }
}
