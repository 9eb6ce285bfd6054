/// Splits an H4 byte stream into packets, whatever the chunking of the reads that deliver it.
///
/// Feed the bytes as they arrive; each complete packet is handed to the callback as a borrowed
/// view (straight into the chunk when it holds the whole packet, otherwise into an internal
/// buffer that keeps its capacity, so steady-state framing allocates nothing). The same stream
/// yields the same packets and errors whether it is fed whole, byte by byte or in random chunks.
///
/// A byte that is not a packet type (0x01…0x05) is skipped; a run of such bytes is reported as
/// one ``WireError/Kind/unknownPacketType`` error (offset of the first skipped byte, its first
/// bytes) just before the next packet, or by ``finish(_:)``. A header that announces more than
/// ``Configuration/maximumPacketLength`` bytes is reported and its type byte skipped. Framing
/// never stops and never loops: every step consumes at least one byte.
public struct H4Framer: Sendable {
    /// Limits applied while framing.
    public struct Configuration: Hashable, Sendable {
        /// The largest packet (type byte, header and payload) accepted; longer announced lengths
        /// are treated as garbage. The default admits every H4 packet (an ACL packet with a
        /// 65,535-byte payload).
        public var maximumPacketLength: Int

        /// Creates a configuration.
        public init(maximumPacketLength: Int = 5 + 65_535) {
            self.maximumPacketLength = maximumPacketLength
        }
    }

    /// What the framer hands to its callback.
    public enum Output {
        /// A complete packet (a view valid only during the callback).
        case packet(H4Packet)
        /// Bytes that could not be framed; framing goes on after them.
        case error(WireError)
    }

    /// The limits in force.
    public let configuration: Configuration
    @usableFromInline var pending: [UInt8] = []
    @usableFromInline var pendingStart = 0
    @usableFromInline var position = 0
    @usableFromInline var garbageStart = 0
    @usableFromInline var garbageCount = 0
    @usableFromInline var garbagePrefix: UInt64 = 0

    /// Creates a framer at stream offset 0.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        pending.reserveCapacity(512)
    }

    /// Bytes of an incomplete packet held until the next ``feed(_:_:)``.
    public var bufferedByteCount: Int { pending.count }

    /// Total bytes fed so far (the stream offset of the next byte).
    public var streamOffset: Int { position }

    /// Frames `chunk`, the next bytes of the stream, calling `body` for each packet and error.
    @inlinable
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Output) throws -> Void) rethrows {
        try feedBytes(chunk, base: position, body)
        position += chunk.count
    }

    /// Ends the stream: reports pending garbage and an incomplete last packet, then resets the
    /// buffer (the stream offset keeps counting).
    public mutating func finish(_ body: (Output) throws -> Void) rethrows {
        try flushGarbage(body)
        if !pending.isEmpty {
            let error = pending.withUnsafeBytes { WireError(.truncatedPacket, offset: pendingStart, window: $0) }
            pending.removeAll(keepingCapacity: true)
            try body(.error(error))
        }
    }

    /// The hot loop: while nothing is pending, whole packets lying in the chunk are handed out
    /// by `framePackets`; everything else (garbage, oversized headers, split packets) goes
    /// through `step`.
    @inlinable
    mutating func feedBytes(
        _ chunk: UnsafeRawBufferPointer, base: Int,
        _ body: (Output) throws -> Void
    ) rethrows {
        let n = chunk.count
        guard n > 0, let start = chunk.baseAddress else { return }
        let maximum = configuration.maximumPacketLength
        var i = 0
        while i < n {
            if pending.isEmpty, garbageCount == 0 {
                i = try Self.framePackets(start, from: i, count: n, maximum: maximum, base: base, body)
                if i == n { return }
            }
            i = try step(chunk, at: i, base: base, body)
        }
    }

    /// Hands out the whole packets that lie in `start[i..<n]` one after another and returns the
    /// index of the first byte that is not the start of one (a non-type byte, an oversized
    /// header or a packet that runs past `n`), or `n`. Touches no framer state, so the loop
    /// keeps everything in registers; each packet's bounds are checked once, against `n`, and
    /// its bytes are then read without further checks.
    @inlinable @inline(__always)
    static func framePackets(
        _ start: UnsafeRawPointer, from i: Int, count n: Int, maximum: Int, base: Int,
        _ body: (Output) throws -> Void
    ) rethrows -> Int {
        var i = i
        while i < n {
            let rest = n &- i
            let header = start + i
            let type: H4PacketType
            let total: Int
            if header.load(as: UInt8.self) == H4PacketType.event.rawValue {
                // The common case (every advertising report): 3 header bytes, an 8-bit length.
                guard rest >= 3 else { return i }
                type = .event
                total = 3 &+ Int(header.load(fromByteOffset: 2, as: UInt8.self))
            } else {
                guard let other = H4PacketType(rawValue: header.load(as: UInt8.self)), rest >= other.headerLength
                else { return i }
                type = other
                total =
                    other.headerLength
                    &+ other.payloadLength(header: UnsafeRawBufferPointer(start: header, count: other.headerLength))
            }
            guard total <= maximum, total <= rest else { return i }
            try body(
                .packet(
                    H4Packet(type: type, bytes: UnsafeRawBufferPointer(start: header, count: total), streamOffset: base &+ i)
                ))
            i &+= total
        }
        return i
    }

    /// Handles what the hot loop does not, at `chunk[i]`; returns the index of the next byte to look at.
    @usableFromInline
    mutating func step(
        _ chunk: UnsafeRawBufferPointer, at i: Int, base: Int,
        _ body: (Output) throws -> Void
    ) rethrows -> Int {
        let n = chunk.count
        if !pending.isEmpty {
            return try i + continuePending(UnsafeRawBufferPointer(rebasing: chunk[i..<n]), base: base + i, body)
        }
        let byte = chunk[i]
        guard let type = H4PacketType(rawValue: byte) else {
            noteGarbage(byte, at: base + i)
            return i + 1
        }
        try flushGarbage(body)
        let rest = UnsafeRawBufferPointer(rebasing: chunk[i..<n])
        if rest.count >= type.headerLength {
            let total = type.headerLength + type.payloadLength(header: rest)
            if total > configuration.maximumPacketLength {
                try body(
                    .error(
                        WireError(.oversizedPacket, at: 0, in: rest, count: type.headerLength)
                            .shifted(by: base + i)))
                return i + 1
            }
            if rest.count >= total {
                try body(
                    .packet(
                        H4Packet(
                            type: type, bytes: UnsafeRawBufferPointer(rebasing: rest[0..<total]),
                            streamOffset: base + i)))
                return i + total
            }
        }
        pendingStart = base + i
        pending.append(contentsOf: rest)
        return n
    }

    /// Adds bytes from `chunk` to the pending packet; returns how many were consumed.
    private mutating func continuePending(
        _ chunk: UnsafeRawBufferPointer, base: Int,
        _ body: (Output) throws -> Void
    ) rethrows -> Int {
        let type = H4PacketType(rawValue: pending[0])! // only valid type bytes start `pending`
        var consumed = 0
        if pending.count < type.headerLength {
            let take = min(type.headerLength - pending.count, chunk.count)
            pending.append(contentsOf: chunk[0..<take])
            consumed = take
            if pending.count < type.headerLength { return consumed }
        }
        let total = pending.withUnsafeBytes { type.headerLength + type.payloadLength(header: $0) }
        if total > configuration.maximumPacketLength {
            let error = pending.withUnsafeBytes { WireError(.oversizedPacket, offset: pendingStart, window: $0) }
            let leftover = Array(pending.dropFirst())
            let leftoverStart = pendingStart + 1
            pending.removeAll(keepingCapacity: true)
            try body(.error(error))
            try leftover.withUnsafeBytes { try feedBytes($0, base: leftoverStart, body) }
            return consumed
        }
        let take = min(total - pending.count, chunk.count - consumed)
        pending.append(contentsOf: chunk[consumed..<(consumed + take)])
        consumed += take
        if pending.count == total {
            let start = pendingStart
            try pending.withUnsafeBytes { try body(.packet(H4Packet(type: type, bytes: $0, streamOffset: start))) }
            pending.removeAll(keepingCapacity: true)
        }
        return consumed
    }

    private mutating func noteGarbage(_ byte: UInt8, at offset: Int) {
        if garbageCount == 0 {
            garbageStart = offset
            garbagePrefix = 0
        }
        if garbageCount < 8 { garbagePrefix |= UInt64(byte) << UInt64(8 * garbageCount) }
        garbageCount += 1
    }

    private mutating func flushGarbage(_ body: (Output) throws -> Void) rethrows {
        guard garbageCount > 0 else { return }
        let shown = min(8, garbageCount)
        let error = withUnsafeBytes(of: garbagePrefix.littleEndian) {
            WireError(.unknownPacketType, offset: garbageStart, window: UnsafeRawBufferPointer(rebasing: $0[0..<shown]))
        }
        garbageCount = 0
        try body(.error(error))
    }
}
