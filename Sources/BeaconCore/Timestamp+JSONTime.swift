extension Timestamp {
    /// The time of the first `"time":"…"` member of a JSON line (an alert event, a presence
    /// line), read without parsing the rest; `nil` when it has none or it is no RFC 3339 time.
    public init?(timeMemberOf line: some StringProtocol) {
        let text = Substring(line)
        guard let start = text.firstRange(of: #""time":""#)?.upperBound, let end = text[start...].firstIndex(of: "\"")
        else { return nil }
        self.init(rfc3339: String(text[start..<end]))
    }
}
