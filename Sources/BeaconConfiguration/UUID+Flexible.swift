import FoundationEssentials

extension UUID {
    /// Accepts 8-4-4-4-12 (any case) or 32 bare hex digits.
    public init?(flexible text: String) {
        if let value = UUID(uuidString: text) {
            self = value
            return
        }
        let hex = text.filter { $0 != "-" }
        guard hex.count == 32, hex.allSatisfy(\.isHexDigit) else { return nil }
        var s = hex.uppercased()
        for position in [8, 13, 18, 23] { s.insert("-", at: s.index(s.startIndex, offsetBy: position)) }
        self.init(uuidString: s)
    }
}
