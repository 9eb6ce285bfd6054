import BeaconCore

/// An alert event as a hub claims it, and as another hub matches it against the events it holds:
/// its idempotency key, read back into its parts (`alert|beacon|kind|due`, and `|attempt` after
/// it for a reminder).
public struct CommittedEvent: Hashable, Sendable {
    /// The idempotency key, whole.
    public var key: String
    /// The key without its time: alert, beacon and kind (and, for a reminder, its attempt: two
    /// reminders of one instance are two events, never one decided twice).
    public var identity: String
    /// The occurrence time (the due time; a reminder's is its instance's).
    public var time: Timestamp

    /// Reads a key; `nil` when it is not one (a peer of another version, a forged message).
    public init?(key: String) {
        guard key.utf8.count <= 1024, let bar = key.lastIndex(of: "|"),
            let last = Int64(key[key.index(after: bar)...])
        else { return nil }
        self.key = key
        let head = key[..<bar]
        // `…|due|attempt`: a reminder. A base key's part before its due time is a kind, never a number.
        if let previous = head.lastIndex(of: "|"), let due = Int64(head[head.index(after: previous)...]) {
            identity = "\(head[..<previous])|attempt \(last)"
            time = Timestamp(nanosecondsSinceEpoch: due)
        } else {
            identity = String(head)
            time = Timestamp(nanosecondsSinceEpoch: last)
        }
    }

    /// Whether `other` is the same event decided by another hub: the same key, or the same alert,
    /// beacon and kind within `tolerance` (two hubs may close a cycle a moment apart).
    public func matches(_ other: CommittedEvent, within tolerance: Duration) -> Bool {
        guard key != other.key else { return true }
        let apart = time.duration(to: other.time)
        return identity == other.identity && apart <= tolerance && apart >= .zero - tolerance
    }
}
