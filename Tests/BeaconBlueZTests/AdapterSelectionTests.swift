import BeaconBlueZ
import Testing

@Suite("AdapterSelection")
struct AdapterSelectionTests {
    let adapters = [HCIAdapterInfo(index: 0, isUp: false), HCIAdapterInfo(index: 1, isUp: true)]

    @Test("hciN, N and nothing parse; anything else is refused")
    func parsing() throws {
        #expect(try AdapterSelection("hci1") == .index(1))
        #expect(try AdapterSelection("3") == .index(3))
        #expect(try AdapterSelection(nil) == .first)
        #expect(throws: BlueZScannerError.invalidAdapterName("usb0")) { try AdapterSelection("usb0") }
    }

    @Test("First picks the first adapter that is up, like hci_get_route")
    func first() throws {
        #expect(try AdapterSelection.first.choose(from: adapters).index == 1)
        #expect(throws: BlueZScannerError.adapterDown(adapter: "hci0")) {
            try AdapterSelection.first.choose(from: [HCIAdapterInfo(index: 0, isUp: false)])
        }
        #expect(throws: BlueZScannerError.noAdapters) { try AdapterSelection.first.choose(from: []) }
    }

    @Test("A missing index lists the adapters present; a down one says so")
    func byIndex() throws {
        #expect(throws: BlueZScannerError.noSuchAdapter(requested: "hci3", available: adapters)) {
            try AdapterSelection.index(3).choose(from: adapters)
        }
        #expect(throws: BlueZScannerError.adapterDown(adapter: "hci0")) {
            try AdapterSelection.index(0).choose(from: adapters)
        }
    }
}
