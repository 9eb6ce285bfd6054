import BeaconCore

/// What posting a named event did: when it was applied and how many pending alerts it cancelled.
public struct ExternalEventReceipt: Sendable, Hashable {
    /// The event's name.
    public var name: String
    /// The beacon it was posted for (`nil`: every beacon).
    public var beacon: BeaconID?
    /// The time it was applied at (the wall clock for a radio; the replay's or simulation's time otherwise).
    public var time: Timestamp
    /// Pending alerts it cancelled.
    public var cancelled: Int

    /// Creates a receipt.
    public init(name: String, beacon: BeaconID?, time: Timestamp, cancelled: Int) {
        self.name = name
        self.beacon = beacon
        self.time = time
        self.cancelled = cancelled
    }

    /// `{"event":"closing","beacon":null,"time":"…","cancelled":2}`.
    public var json: String {
        var json = JSONWriter()
        json.object { object in
            object.member("event", name)
            object.key("beacon")
            if let beacon { object.value(beacon.description) } else { object.null() }
            object.member("time", time.rfc3339String)
            object.member("cancelled", cancelled)
        }
        return json.string
    }
}
