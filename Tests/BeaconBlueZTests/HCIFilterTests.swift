import BeaconBlueZ
import CBluetooth
import Testing

@Suite("HCIFilter")
struct HCIFilterTests {
    @Test("LE Meta filter: type bit 4 (event packets), event bit 62 (0x3E) in the second word")
    func leMetaByHand() {
        // hci_filter_set_ptype(HCI_EVENT_PKT = 0x04): type_mask |= 1 << 4 = 0x10
        // hci_filter_set_event(EVT_LE_META_EVENT = 0x3E = 62): event_mask[62 >> 5 = 1] |= 1 << (62 & 31 = 30)
        #expect(HCIFilter.leMeta.typeMask == 0x0000_0010)
        #expect(HCIFilter.leMeta.eventMask.0 == 0)
        #expect(HCIFilter.leMeta.eventMask.1 == 0x4000_0000)
        #expect(HCIFilter.leMeta.opcode == 0)
    }

    @Test("LE Meta filter equals the one libbluetooth's own inline helpers build (hcitool lescan's)")
    func leMetaMatchesLibbluetooth() {
        let c = cbt_le_meta_filter()
        let swift = HCIFilter.leMeta
        #expect(c.type_mask == swift.typeMask)
        #expect(c.event_mask.0 == swift.eventMask.0)
        #expect(c.event_mask.1 == swift.eventMask.1)
        #expect(c.opcode == swift.opcode)
        #expect(cbt_filter_size() == 16) // struct hci_filter: 4 + 2×4 + 2, padded to 16
    }

    @Test("Command filter: Command Complete (bit 14), Command Status (bit 15), LE Meta")
    func commandResponses() {
        let filter = HCIFilter.commandResponses
        #expect(filter.eventMask.0 == 0x0000_C000)
        #expect(filter.eventMask.1 == 0x4000_0000)
        #expect(filter.allowsEvent(0x0E) && filter.allowsEvent(0x0F) && filter.allowsEvent(0x3E))
        #expect(!filter.allowsEvent(0x05))
    }
}
