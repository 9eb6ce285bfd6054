import Testing

@testable import BeaconSite

/// The hub's evidence table alone (`EvidenceTable`): where a record goes, which one counts, and
/// what an eviction keeps.
@Suite("Evidence table: a slot per beacon, gateway and recent cycle")
struct EvidenceTableTests {
    static func slot(cycle: Int64, rssi: Float = -70, mean: Float = -68, samples: UInt16 = 2, seen: Bool = true)
        -> EvidenceSlot
    {
        EvidenceSlot(cycle: cycle, rssi: rssi, mean: mean, distance: 2, accuracy: 1, samples: samples, seen: seen)
    }

    /// Two beacons, three gateways, evidence counting for 2 cycles.
    static func table() -> EvidenceTable {
        var table = EvidenceTable(gatewayCount: 3, staleCycles: 2)
        table.appendBeacon()
        table.appendBeacon()
        return table
    }

    @Test("a record goes to its cycle's slot; an older cycle's record does not overwrite a newer one in it")
    func newerHoldsTheSlot() {
        var table = Self.table()
        let at = table.index(beacon: 1, gateway: 2, cycle: 9)
        #expect(table.gateway(ofSlot: at) == 2)
        table.file(Self.slot(cycle: 9, mean: -60), at: at)
        // Cycle 5 shares the slot (5 mod 4 = 9 mod 4): it is older, so it is dropped.
        #expect(table.index(beacon: 1, gateway: 2, cycle: 5) == at)
        table.file(Self.slot(cycle: 5, mean: -90), at: at)
        #expect(table[at].cycle == 9 && table[at].mean == -60)
        table.file(Self.slot(cycle: 13, mean: -80), at: at)
        #expect(table[at].cycle == 13 && table[at].mean == -80)
    }

    @Test(
        "the newest slot within the staleness counts; none past it, none from a later cycle",
        arguments: [
            // (cycles filed, asked at, the cycle found or -1)
            ([8, 9], Int64(9), Int64(9)), ([8, 9], 10, 9), ([8], 10, -1), ([10], 9, -1), ([7, 8, 10], 10, 10),
            ([7, 8, 10], 9, 8),
        ])
    func newestWithinStaleness(filed: [Int64], asked: Int64, found: Int64) {
        var table = Self.table()
        for cycle in filed { table.file(Self.slot(cycle: cycle), at: table.index(beacon: 0, gateway: 1, cycle: cycle)) }
        let s = table.newestSlot(beacon: 0, gateway: 1, cycle: asked)
        #expect((s.map { table[$0].cycle } ?? -1) == found)
        #expect(table.newestSlot(beacon: 1, gateway: 1, cycle: asked) == nil, "another beacon's row")
    }

    @Test("the recent mean weighs this cycle's and the last one's means by their sightings")
    func recentMean() throws {
        var table = Self.table()
        table.file(Self.slot(cycle: 7, mean: -50, samples: 5), at: table.index(beacon: 0, gateway: 0, cycle: 7))
        table.file(Self.slot(cycle: 8, mean: -60, samples: 1), at: table.index(beacon: 0, gateway: 0, cycle: 8))
        table.file(Self.slot(cycle: 9, mean: -70, samples: 3), at: table.index(beacon: 0, gateway: 0, cycle: 9))
        let mean = try #require(table.recentMean(beacon: 0, gateway: 0, cycle: 9))
        #expect(abs(mean - (-60 * 1 - 70 * 3) / 4) < 1e-4, "cycle 7 is too old")
        #expect(table.recentMean(beacon: 0, gateway: 1, cycle: 9) == nil)
    }

    @Test("each gateway's evidence: the cycle's mean when heard in it, else the filtered value within the grace")
    func evidenceOfABeacon() {
        var table = Self.table()
        table.file(Self.slot(cycle: 9, rssi: -71, mean: -69), at: table.index(beacon: 0, gateway: 0, cycle: 9))
        table.file(Self.slot(cycle: 8, rssi: -81, mean: -79), at: table.index(beacon: 0, gateway: 1, cycle: 8))
        table.file(Self.slot(cycle: 9, rssi: .nan, mean: .nan, samples: 0), at: table.index(beacon: 0, gateway: 2, cycle: 9))
        var seen: [Int: Double?] = [:]
        table.forEachEvidence(ofBeacon: 0, cycle: 9) { g, rssi in seen[g] = rssi }
        #expect(seen.count == 3)
        #expect(seen[0] == -69 && seen[1] == -81)
        #expect(seen[2] == .some(nil), "evidence without a value")
    }

    @Test("an eviction moves the last beacon's row into the evicted one's and drops the last")
    func eviction() {
        var table = Self.table()
        table.appendBeacon()
        table.file(Self.slot(cycle: 4, mean: -44), at: table.index(beacon: 2, gateway: 1, cycle: 4))
        table.file(Self.slot(cycle: 4, mean: -11), at: table.index(beacon: 0, gateway: 1, cycle: 4))
        table.moveLast(to: 0)
        #expect(table.slots.count == 2 * table.rowWidth)
        #expect(table[table.index(beacon: 0, gateway: 1, cycle: 4)].mean == -44)
        table.moveLast(to: 1) // the last evicted itself
        #expect(table.slots.count == table.rowWidth)
        #expect(table[table.index(beacon: 0, gateway: 1, cycle: 4)].mean == -44)
    }

    @Test(
        "a beacon's summary: fresh gateways, this cycle's sightings, the loudest and the nearest, and rooms scored with receive offsets"
    )
    func summary() {
        var table = Self.table()
        // Gateway 0 (room 0) heard beacon 0 this cycle; gateway 1 (room 0) last cycle, nearer and
        // louder; gateway 2 (room 1) three cycles ago: past the staleness, it says nothing.
        table.file(
            EvidenceSlot(cycle: 9, rssi: -70, mean: -72, distance: 4, accuracy: 2, samples: 3, seen: true),
            at: table.index(beacon: 0, gateway: 0, cycle: 9))
        table.file(
            EvidenceSlot(cycle: 8, rssi: -60, mean: -61, distance: 1.5, accuracy: 0.5, samples: 2, seen: true),
            at: table.index(beacon: 0, gateway: 1, cycle: 8))
        table.file(Self.slot(cycle: 6, rssi: -40, mean: -40), at: table.index(beacon: 0, gateway: 2, cycle: 6))
        var scores: [Float] = [0, 0]
        let heard = table.summarize(
            beacon: 0, cycle: 9, roomOfGateway: [0, 0, 1], receiveOffsets: [0, -15, 0], roomScores: &scores)
        #expect(heard.gateways == 2)
        #expect(heard.seen && heard.samples == 3, "only this cycle's sightings count")
        #expect(heard.bestRSSI == -60 && heard.nearest == 1.5 && heard.nearestAccuracy == 0.5)
        // Room 0: gateway 0's −72 against gateway 1's −61 − 15 = −76 once its receiver is evened out.
        #expect(scores == [-72, -.infinity], "\(scores)")
        let silent = table.summarize(
            beacon: 1, cycle: 9, roomOfGateway: [0, 0, 1], receiveOffsets: [0, 0, 0], roomScores: &scores)
        #expect(silent.gateways == 0 && !silent.seen && silent.bestRSSI == -.infinity && silent.nearest == .infinity)
        #expect(scores == [-.infinity, -.infinity], "scores are reset for every beacon")
    }
}
