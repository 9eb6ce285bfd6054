import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("AddressHistory")
struct AddressHistoryTests {
    @Test("keeps the last 8 distinct addresses; a known address is not added again")
    func boundedDistinct() {
        var history = AddressHistory()
        for i in 1...3 { history.record(BluetoothAddress(rawValue: UInt64(i))) }
        history.record(BluetoothAddress(rawValue: 2))
        #expect(history.count == 3)
        #expect(history.last == BluetoothAddress(rawValue: 2))
        for i in 4...10 { history.record(BluetoothAddress(rawValue: UInt64(i))) }
        // 10 distinct seen; the two oldest (1, 2) were overwritten by 9 and 10.
        #expect(history.count == 8)
        #expect(Set(history.addresses.map(\.rawValue)) == Set(3...10))
        #expect(history.last == BluetoothAddress(rawValue: 10))
    }
}
