import BeaconCore

/// One delivered alert as a person answers it: the alert, the beacon and the due time of its
/// first delivery. Its text form is that delivery's idempotency key, `alert|beacon|delivered|due`
/// (the `instance` of every delivery, reminder and answer event).
public struct AlertInstance: Hashable, Sendable, CustomStringConvertible {
    /// The alert and beacon.
    public var key: AlertKey
    /// The due time of its first delivery.
    public var due: Timestamp

    /// Creates an instance.
    public init(key: AlertKey, due: Timestamp) {
        self.key = key
        self.due = due
    }

    /// Reads `alert|beacon|delivered|due` (due in nanoseconds since the epoch); `nil` for any
    /// other text.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 4, !parts[0].isEmpty, parts[2] == "delivered",
            let beacon = BeaconID(parts[1]), let nanoseconds = Int64(parts[3])
        else { return nil }
        self.init(key: AlertKey(alertID: String(parts[0]), beacon: beacon), due: Timestamp(nanosecondsSinceEpoch: nanoseconds))
    }

    /// `alert|beacon|delivered|due`.
    public var description: String { "\(key.alertID)|\(key.beacon)|delivered|\(due.nanosecondsSinceEpoch)" }
}
