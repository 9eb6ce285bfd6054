import BeaconCore

/// What a pcapng Interface Description Block declares: link type, snap length and the timestamp
/// resolution (`if_tsresol`) and offset (`if_tsoffset`) of the packets captured on it.
struct PcapngInterface {
    var linkType: LinkType
    var snapLength: Int
    /// `if_tsresol`: bit 7 clear → 10^-n seconds per unit, set → 2^-n. Default 6 (microseconds).
    var resolution: UInt8 = 6
    /// `if_tsoffset`: seconds added to every timestamp.
    var offsetSeconds: Int64 = 0

    /// Reads the block body of an IDB at `offset` (whose total length is `length`).
    init(file: UnsafeRawBufferPointer, offset: Int, length: Int, bigEndian: Bool) {
        linkType = LinkType(rawValue: UInt32(file.uint16(at: offset + 8, bigEndian: bigEndian)))
        snapLength = Int(file.uint32(at: offset + 12, bigEndian: bigEndian))
        var option = offset + 16
        let end = offset + length - 4
        while option + 4 <= end {
            let code = file.uint16(at: option, bigEndian: bigEndian)
            let size = Int(file.uint16(at: option + 2, bigEndian: bigEndian))
            let value = option + 4
            guard code != 0, value + size <= end else { break }
            if code == 9, size >= 1 {
                resolution = file[value]
            } else if code == 14, size >= 8 {
                let high = UInt64(file.uint32(at: value, bigEndian: bigEndian))
                let low = UInt64(file.uint32(at: value + 4, bigEndian: bigEndian))
                offsetSeconds = Int64(bitPattern: bigEndian ? high << 32 | low : low << 32 | high)
            }
            option = value + (size + 3) & ~3
        }
    }

    /// The timestamp of a packet whose 64-bit timestamp is `units` of this interface's resolution.
    func timestamp(units: UInt64) -> Timestamp {
        let exponent = Int(resolution & 0x7F)
        var nanos: Int64
        if resolution & 0x80 == 0 {
            if exponent <= 9 {
                var scale: UInt64 = 1
                for _ in 0..<(9 - exponent) { scale *= 10 }
                let (product, overflow) = units.multipliedReportingOverflow(by: scale)
                nanos = overflow ? .max : Int64(clamping: product)
            } else {
                var scale: UInt64 = 1
                for _ in 0..<min(exponent - 9, 19) { scale *= 10 }
                nanos = Int64(clamping: units / scale)
            }
        } else if exponent < 32 {
            let whole = units >> UInt64(exponent)
            let fraction = units & ((1 << UInt64(exponent)) - 1)
            nanos = Int64(clamping: whole &* 1_000_000_000 &+ (fraction &* 1_000_000_000) >> UInt64(exponent))
        } else {
            nanos = Int64(clamping: UInt64(Double(units) / Double(sign: .plus, exponent: exponent, significand: 1) * 1e9))
        }
        return Timestamp(nanosecondsSinceEpoch: nanos &+ offsetSeconds &* 1_000_000_000)
    }
}
