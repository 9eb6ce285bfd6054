import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

/// A subclass that keeps every beacon it is given (rooms included), to check that the base's
/// in-place evaluation lends the update's beacons without taking or giving up ownership.
private final class KeepingStrategy: BeaconAlertStrategyBase<[RangedBeacon?]> {
    override var key: String { "keeping" }

    override func updateAlertParameter(_ kept: inout [RangedBeacon?], beacon: RangedBeacon?, now: Timestamp) {
        kept.append(beacon)
    }

    override func isConditionValid(_ kept: [RangedBeacon?], now: Timestamp) -> Bool { kept.count % 3 == 0 }
}

/// `BeaconAlertStrategyBase.evaluate(_:matching:into:)` reads the update's beacons in place; it
/// must do exactly what the protocol's default (each beacon through `evaluate(beacon:now:)`,
/// then `finishCycle`) does.
@Suite("BeaconAlertStrategyBase: in-place evaluation of an update")
struct BeaconAlertStrategyBaseInPlaceTests {
    @Test("An optional ranged beacon is laid out as the beacon itself (the lent form)")
    func layout() {
        #expect(MemoryLayout<RangedBeacon?>.size == MemoryLayout<RangedBeacon>.size)
        #expect(MemoryLayout<RangedBeacon?>.stride == MemoryLayout<RangedBeacon>.stride)
    }

    static func beacon(_ n: Int, at second: Int, seen: Bool) -> RangedBeacon {
        RangedBeacon(
            id: .numbered(n), lastAddress: BluetoothAddress(rawValue: UInt64(n)), seenThisCycle: seen,
            sampleCount: seen ? 1 : 0, lastRSSI: -60, meanRSSI: -60, filteredRSSI: -60, measuredPower: -59,
            distance: 1, accuracy: 0.5, proximity: n % 3 == 0 ? .far : .near, firstSeen: .at(0), lastSeen: .at(second),
            room: n % 2 == 0 ? room(n % 5) : nil, floor: n % 4 == 0 ? "floor number \(n) of the building" : nil)
    }

    /// Room names long enough to live on the heap.
    static func room(_ k: Int) -> String { "room number \(k) in the east wing" }

    /// 40 beacons over 150 cycles, listed in a shuffled order some cycles, some missing, some in
    /// their grace; the alert matches the beacons whose number is not a multiple of 7.
    static func run(inPlace: Bool, seed: UInt64) -> [[AlertTrigger]] {
        let strategies: [any BeaconAlertStrategy] = [
            TimeAlertStrategy(.init(dwell: .seconds(8), gap: .seconds(2), base: .init(maxTimeBeforeReset: .seconds(5)))),
            TimeAlertStrategy(.init(dwell: .seconds(4), room: room(2), unknownGrace: .seconds(2))),
            ExitAlertStrategy(.init(away: .seconds(4))),
            KeepingStrategy(initialValue: []),
        ]
        var generator = SplitMix64(seed: seed)
        var fired: [[AlertTrigger]] = []
        for second in 0..<150 {
            var beacons: [RangedBeacon] = []
            for n in 0..<40 where (second / (3 + n % 5) + n) % 4 != 0 {
                beacons.append(beacon(n, at: second, seen: (second + n) % 3 != 0))
            }
            if second % 4 == 1 { beacons.shuffle(using: &generator) }
            let update = RangingUpdate(cycleStart: .at(second - 1), time: .at(second), beacons: beacons)
            let matches: (BeaconID) -> Bool = { id in !(0..<40).contains { $0 % 7 == 0 && BeaconID.numbered($0) == id } }
            var triggers: [AlertTrigger] = []
            for strategy in strategies {
                if inPlace {
                    strategy.evaluate(update, matching: matches, into: &triggers)
                } else {
                    strategy.evaluate(update.beacons.filter { matches($0.id) }, now: update.time, into: &triggers)
                }
            }
            fired.append(triggers)
        }
        return fired
    }

    @Test("Fires exactly what the per-beacon default fires", arguments: [1, 2, 3] as [UInt64])
    func sameAsDefault(seed: UInt64) {
        let inPlace = Self.run(inPlace: true, seed: seed)
        let perBeacon = Self.run(inPlace: false, seed: seed)
        #expect(inPlace.joined().count > 50, "the script must actually fire")
        #expect(inPlace == perBeacon)
    }

    @Test("A hook that keeps the lent beacons keeps valid copies after the update is gone")
    func lentBeaconsStayOwnedByTheUpdate() throws {
        let strategy = KeepingStrategy(initialValue: [])
        var triggers: [AlertTrigger] = []
        for second in 0..<20 {
            // Strings built at run time (heap-allocated), released with the update.
            let beacons = (0..<6).map { n in Self.beacon(n * 2, at: second, seen: true) }
            strategy.evaluate(
                RangingUpdate(cycleStart: .at(second - 1), time: .at(second), beacons: beacons),
                matching: { _ in true }, into: &triggers)
        }
        let kept = try #require(strategy.parameter(for: .numbered(4))).value
        #expect(kept.count == 20)
        #expect(kept.allSatisfy { $0?.room == Self.room(4) && $0?.floor == "floor number 4 of the building" })
    }
}
