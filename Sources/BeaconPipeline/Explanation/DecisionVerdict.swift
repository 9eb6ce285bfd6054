import BeaconCore

/// What an explanation concludes for one alert and beacon up to a time: when the alert was
/// delivered, or the first thing that stood in its way.
public struct DecisionVerdict: Hashable, Sendable {
    /// The first deliveries (not reminders) up to that time, in order.
    public var deliveries: [Timestamp]
    /// When nothing was delivered: the furthest the decision got and what stopped it there, in
    /// words ("never heard", "the condition never held: best 42 of 60 s at 09:03:10", "the
    /// engine ignored the firing: cooldown until …", "cancelled: …").
    public var obstacle: String?

    /// Whether the alert was delivered.
    public var delivered: Bool { !deliveries.isEmpty }

    /// Creates a verdict.
    public init(deliveries: [Timestamp], obstacle: String?) {
        self.deliveries = deliveries
        self.obstacle = obstacle
    }

    /// One line: `delivered at 09:01:03` (and the later ones), or `not delivered: …`.
    public var summary: String {
        guard let first = deliveries.first else { return "not delivered: \(obstacle ?? "nothing happened")" }
        let more = deliveries.dropFirst().map(\.timeOfDayString)
        return "delivered at \(first.timeOfDayString)" + (more.isEmpty ? "" : ", then at " + more.joined(separator: ", "))
    }
}
