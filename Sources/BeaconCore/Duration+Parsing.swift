extension Duration {
    /// Parses a human duration as configuration files and options write it: a number followed
    /// by a unit, optionally repeated — `376us`, `250ms`, `3s`, `1.5s`, `10m`, `2h`, `1d`,
    /// `1h30m`. Units: `ns`, `us` (or `µs`), `ms`, `s`, `m` (or `min`), `h`, `d`. A bare number is
    /// rejected (say which unit you mean), except `0`. Returns `nil` for anything else, and for
    /// a duration longer than `maximumParsed` (100 years).
    ///
    /// This is the one duration syntax of beacond: configuration, scenarios, strategy
    /// parameters and command-line options all read durations through it.
    public init?(parsing text: some StringProtocol) {
        var bytes = Substring(text).utf8[...]
        while bytes.first == UInt8(ascii: " ") { bytes = bytes.dropFirst() }
        while bytes.last == UInt8(ascii: " ") { bytes = bytes.dropLast() }
        guard !bytes.isEmpty else { return nil }
        if bytes.elementsEqual("0".utf8) {
            self = .zero
            return
        }
        var totalNanoseconds = 0.0
        while !bytes.isEmpty {
            let numberEnd =
                bytes.firstIndex { !(($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".")) }
                ?? bytes.endIndex
            guard numberEnd != bytes.startIndex,
                let value = Double(String(decoding: bytes[bytes.startIndex..<numberEnd], as: UTF8.self))
            else { return nil }
            bytes = bytes[numberEnd...]
            let unitEnd = bytes.firstIndex { ($0 < UInt8(ascii: "a") || $0 > UInt8(ascii: "z")) && $0 < 0x80 } ?? bytes.endIndex
            let unit = String(decoding: bytes[bytes.startIndex..<unitEnd], as: UTF8.self)
            bytes = bytes[unitEnd...]
            let scale: Double
            switch unit {
            case "ns": scale = 1
            case "us", "µs": scale = 1e3
            case "ms": scale = 1e6
            case "s": scale = 1e9
            case "m", "min": scale = 60e9
            case "h": scale = 3600e9
            case "d": scale = 86_400e9
            default: return nil
            }
            totalNanoseconds += value * scale
        }
        guard totalNanoseconds.isFinite, totalNanoseconds <= Double(Self.maximumParsed.nanoseconds) else { return nil }
        self = .nanoseconds(Int64(totalNanoseconds.rounded()))
    }

    /// The longest duration any text may give: 100 years (36,500 days). Together with
    /// `Timestamp.supportedYears` it keeps every time a configuration can name within 64-bit
    /// nanoseconds.
    public static let maximumParsed = Duration.seconds(36_500 * 86_400)

    /// For a person reading a log: at most three significant figures, in the unit that fits —
    /// `850us`, `840ms`, `1.17s`, `12.5s`, `3m5s`, `2h` (a retry's wait of 1.169012837 s is
    /// `1.17s`). ``init(parsing:)`` reads it back, rounded.
    public var approximate: String {
        let ns = nanoseconds
        if ns < 0 { return "-" + Duration.nanoseconds(ns == .min ? .max : -ns).approximate }
        func decimals(_ value: Double, _ places: Int, _ unit: String) -> String {
            let scale = places == 2 ? 100.0 : 10.0
            let scaled = Int64((value * scale).rounded())
            var fraction = String(scaled % Int64(scale))
            while fraction.count < places { fraction = "0" + fraction }
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return "\(scaled / Int64(scale))" + (fraction.isEmpty ? "" : "." + fraction) + unit
        }
        // Rounded first, then the unit: 999.6 µs is 1ms, not 1000us.
        let micro = Int64((Double(ns) / 1e3).rounded()), milli = Int64((Double(ns) / 1e6).rounded())
        switch ns {
        case ..<1_000: return "\(ns)ns"
        case _ where micro < 1_000: return "\(micro)us"
        case _ where milli < 1_000: return "\(milli)ms"
        case ..<9_995_000_000: return decimals(Double(ns) / 1e9, 2, "s")
        case ..<59_950_000_000: return decimals(Double(ns) / 1e9, 1, "s")
        default: return Duration.seconds(Int64((Double(ns) / 1e9).rounded())).humanReadable
        }
    }

    /// A compact human form that ``init(parsing:)`` reads back: `250ms`, `3s`, `1.5s`, `10m`,
    /// `1h30m`, `2d`.
    public var humanReadable: String {
        let ns = nanoseconds
        if ns == 0 { return "0s" }
        if ns < 0 { return "-" + Duration.nanoseconds(ns == .min ? .max : -ns).humanReadable }
        if ns % 1_000_000_000 != 0 {
            if ns < 1_000_000_000, ns % 1_000_000 == 0 { return "\(ns / 1_000_000)ms" }
            return "\(Double(ns) / 1e9)s"
        }
        var seconds = ns / 1_000_000_000
        var out = ""
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)] where seconds >= size {
            out += "\(seconds / size)\(unit)"
            seconds %= size
        }
        if seconds > 0 { out += "\(seconds)s" }
        return out
    }
}
