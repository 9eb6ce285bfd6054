import BeaconCore
import Testing

@testable import BeaconRanging

/// The ranging loop's tracked beacons as a table alone: slots stay dense and each is found by its
/// identity, with its hot record, its cold state and its filter kept together.
@Suite("TrackedBeaconTable")
struct TrackedBeaconTableTests {
    /// Adds beacon `minor` (major `major`) at `seconds`; its filter has seen `rssi` once.
    @discardableResult
    static func add(
        _ minor: UInt16, major: UInt16 = 1, at seconds: Double = 0, rssi: Double = -60,
        to table: inout TrackedBeaconTable
    ) -> Int {
        let id = Fixture.beacon(minor, major: major)
        let time = Fixture.time(seconds)
        let address = BluetoothAddress(rawValue: 0xAABB_0000_0000 | UInt64(minor))
        return table.append(
            HotBeaconState(id: id, time: time, address: address, inRegions: false),
            ColdBeaconState(id: id, time: time, address: address, regionMask: 0)
        ) {
            var filter = RSSIFilterKind.runningAverage(.init()).makeFilter()
            filter.add(rssi, at: time)
            return filter
        }
    }

    @Test("beacons added get dense slots, each found by its identity, through the tables' growth")
    func denseSlots() {
        var table = TrackedBeaconTable(keepsFilters: true)
        for minor in 0..<300 {
            #expect(Self.add(UInt16(minor), rssi: -Double(minor % 50), to: &table) == minor)
        }
        #expect(table.count == 300)
        for minor in 0..<300 {
            let id = Fixture.beacon(UInt16(minor))
            #expect(table.slot(of: id) == minor)
            #expect(table.hot[minor].matches(id) && table.cold[minor].id == id)
            #expect(table.filters[minor].estimate == -Double(minor % 50))
        }
        #expect(table.slot(of: Fixture.beacon(1, major: 2)) == nil)
    }

    @Test("removing a beacon returns it and moves the last beacon, with its state and filter, into its slot")
    func removalMovesTheLast() {
        var table = TrackedBeaconTable(keepsFilters: true)
        for minor in 0..<5 { Self.add(UInt16(minor), at: Double(minor), rssi: -70 - Double(minor), to: &table) }
        let removed = table.remove(slot: 1)
        #expect(removed == Fixture.beacon(1))
        #expect(table.count == 4)
        #expect(table.slot(of: Fixture.beacon(1)) == nil)
        let moved = Fixture.beacon(4)
        #expect(table.slot(of: moved) == 1)
        #expect(table.hot[1].matches(moved) && table.cold[1].id == moved)
        #expect(table.hot[1].lastSeen == Fixture.time(4).nanosecondsSinceEpoch)
        #expect(table.filters[1].estimate == -74)
        // Removing the last slot moves nothing.
        #expect(table.remove(slot: 3) == Fixture.beacon(3))
        #expect([0, 4, 2].map { table.slot(of: Fixture.beacon($0)) } == [0, 1, 2])
    }

    @Test("a table that keeps no filters (the loop's, with an ARMA filter) makes none and holds none")
    func withoutFilters() {
        var table = TrackedBeaconTable(keepsFilters: false)
        var made = 0
        let id = Fixture.beacon(7)
        let slot = table.append(
            HotBeaconState(id: id, time: Fixture.time(0), address: BluetoothAddress(rawValue: 1), inRegions: false),
            ColdBeaconState(id: id, time: Fixture.time(0), address: BluetoothAddress(rawValue: 1), regionMask: 0)
        ) {
            made += 1
            return RSSIFilterKind.runningAverage(.init()).makeFilter()
        }
        #expect(slot == 0 && made == 0 && table.filters.isEmpty && table.filters.capacity == 0)
        #expect(table.remove(slot: 0) == id && table.isEmpty)
    }

    @Test("shrinking after most beacons went keeps every remaining one findable and gives memory back")
    func shrink() {
        var table = TrackedBeaconTable(keepsFilters: true)
        for n in 0..<4_000 { Self.add(UInt16(n % 1000), major: UInt16(n / 1000), rssi: -Double(n % 90), to: &table) }
        while table.count > 100 { _ = table.remove(slot: 0) }
        let kept = (0..<table.count).map { table.cold[$0].id }
        let estimates = (0..<table.count).map { table.filters[$0].estimate }
        let before = table.reservedBytes
        table.shrink(to: 200)
        #expect(table.reservedBytes < before / 10)
        #expect(table.cold.capacity >= 100 && table.cold.capacity < 400)
        for (slot, id) in kept.enumerated() {
            #expect(table.slot(of: id) == slot)
            #expect(table.filters[slot].estimate == estimates[slot])
        }
        // And it still grows.
        Self.add(1, major: 99, to: &table)
        #expect(table.slot(of: Fixture.beacon(1, major: 99)) == 100)
    }
}
