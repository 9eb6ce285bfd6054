import BeaconCore

/// An alert event as the active hub announces it once committed to its outbox, and as a
/// standby hub matches it against the events it holds: its idempotency key, read back into its
/// parts (`alert|beacon|kind|nanoseconds`).
public struct CommittedEvent: Hashable, Sendable {
    /// The idempotency key, whole.
    public var key: String
    /// The key without its time: alert, beacon and kind.
    public var identity: Substring
    /// The occurrence time.
    public var time: Timestamp

    /// Reads a key; `nil` when it is not one (a peer of another version, a forged message).
    public init?(key: String) {
        guard key.utf8.count <= 1024, let bar = key.lastIndex(of: "|"),
            let nanoseconds = Int64(key[key.index(after: bar)...])
        else { return nil }
        self.key = key
        identity = key[..<bar]
        time = Timestamp(nanosecondsSinceEpoch: nanoseconds)
    }

    /// Whether `other` is the same event decided by another hub: the same key, or the same alert,
    /// beacon and kind within `tolerance` (two hubs may close a cycle a moment apart).
    public func matches(_ other: CommittedEvent, within tolerance: Duration) -> Bool {
        guard key != other.key else { return true }
        let apart = time.duration(to: other.time)
        return identity == other.identity && apart <= tolerance && apart >= .zero - tolerance
    }
}
