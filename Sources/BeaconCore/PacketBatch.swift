/// A batch of received packets, held in one contiguous buffer.
///
/// Sources (the HCI scanner, the simulator, capture replay) hand packets downstream in batches so
/// that the per-packet cost is a few loads, not an allocation or an async hop. A batch is meant
/// to be reused: ``removeAll()`` keeps the capacity, and a consumer that does not keep a copy
/// lets the producer refill the same storage.
public struct PacketBatch: Sendable {
    /// Where one packet sits in ``bytes`` and what it is.
    public struct Record: Hashable, Sendable {
        /// When the packet was received.
        public var timestamp: Timestamp
        /// Offset of the first byte in ``PacketBatch/bytes``.
        public var offset: Int32
        /// Length in bytes.
        public var length: Int32
        /// How the bytes are framed.
        public var linkType: LinkType

        public init(timestamp: Timestamp, offset: Int32, length: Int32, linkType: LinkType) {
            self.timestamp = timestamp
            self.offset = offset
            self.length = length
            self.linkType = linkType
        }
    }

    /// The packets' bytes, back to back.
    public private(set) var bytes: [UInt8]
    /// One record per packet, in reception order.
    public private(set) var records: [Record]

    /// Creates an empty batch with room for `byteCapacity` bytes and `packetCapacity` packets.
    public init(byteCapacity: Int = 0, packetCapacity: Int = 0) {
        bytes = []
        records = []
        bytes.reserveCapacity(byteCapacity)
        records.reserveCapacity(packetCapacity)
    }

    /// Number of packets.
    @inlinable public var count: Int { records.count }
    /// True when there are no packets.
    @inlinable public var isEmpty: Bool { records.isEmpty }

    /// Appends a packet.
    public mutating func append(_ packet: some Collection<UInt8>, linkType: LinkType = .hciH4, timestamp: Timestamp) {
        let offset = bytes.count
        bytes.append(contentsOf: packet)
        records.append(
            Record(
                timestamp: timestamp, offset: Int32(offset), length: Int32(bytes.count - offset),
                linkType: linkType))
    }

    /// Appends a packet whose bytes are written by `body` (which appends to the buffer it is given).
    /// Lets an encoder write straight into the batch without an intermediate array.
    public mutating func append(linkType: LinkType = .hciH4, timestamp: Timestamp, _ body: (inout [UInt8]) -> Void) {
        let offset = bytes.count
        body(&bytes)
        records.append(
            Record(
                timestamp: timestamp, offset: Int32(offset), length: Int32(bytes.count - offset),
                linkType: linkType))
    }

    /// Removes every packet, keeping the storage for reuse.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        records.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each packet's record and bytes (valid only during the call), in order.
    @inlinable
    public func forEachPacket(_ body: (Record, UnsafeRawBufferPointer) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { all in
            for record in records {
                let start = Int(record.offset)
                try body(record, UnsafeRawBufferPointer(rebasing: all[start..<(start + Int(record.length))]))
            }
        }
    }
}
