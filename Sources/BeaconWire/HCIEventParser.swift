/// Entry points for parsing H4 HCI event packets.
public enum HCIEventParser {
    /// Calls `body` with each advertising report of `packet`, an H4 packet starting at its 0x04
    /// type byte. Packets that carry no advertising reports are ignored.
    ///
    /// The reports are views valid only during `body`. Throws the first ``WireError`` found (after
    /// delivering the reports before it) or an error thrown by `body`; the caller moves on to the
    /// next packet. Allocates nothing.
    @inlinable
    public static func forEachAdvertisingReport(
        inEvent packet: UnsafeRawBufferPointer, _ body: (AdvertisingReport) throws(WireError) -> Void
    ) throws(WireError) {
        var reports = AdvertisingReportIterator(event: packet)
        while let report = try reports.next() { try body(report) }
    }

    /// The advertising reports of `packet` as a non-allocating iterator.
    @inlinable
    public static func advertisingReports(inEvent packet: UnsafeRawBufferPointer) -> AdvertisingReportIterator {
        AdvertisingReportIterator(event: packet)
    }
}
