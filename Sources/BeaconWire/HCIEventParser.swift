/// Entry points for parsing H4 HCI event packets.
public enum HCIEventParser {
    /// Calls `body` with each advertising report of `packet`, an H4 packet starting at its 0x04
    /// type byte. Packets that carry no advertising reports are ignored.
    ///
    /// The reports are views valid only during `body`. Throws the first ``WireError`` found (after
    /// delivering the reports before it), or whatever `body` throws; after a ``WireError`` the
    /// caller moves on to the next packet. Allocates nothing. (For typed throws, use
    /// ``advertisingReports(inEvent:)``, whose `next()` throws only ``WireError``.)
    @inlinable @inline(__always)
    public static func forEachAdvertisingReport(
        inEvent packet: UnsafeRawBufferPointer, _ body: (AdvertisingReport) throws -> Void
    ) throws {
        var reports = AdvertisingReportIterator(event: packet)
        while let report = try reports.next() { try body(report) }
    }

    /// The advertising reports of `packet` as a non-allocating iterator.
    @inlinable @inline(__always)
    public static func advertisingReports(inEvent packet: UnsafeRawBufferPointer) -> AdvertisingReportIterator {
        AdvertisingReportIterator(event: packet)
    }
}
