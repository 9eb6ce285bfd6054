import BeaconCore

extension OutputBuffer {
    /// Appends the event type as the oracle writes it: `0x00`…`0x04` for legacy and directed
    /// reports, four digits (`0x0013`) for extended ones, the link-layer PDU type (`0x00`…`0x0f`)
    /// for sniffer PDUs.
    func append(eventTypeOf report: AdvertisingReport) {
        append(hex: UInt64(report.eventType), digits: report.kind == .extended ? 4 : 2)
    }
}
