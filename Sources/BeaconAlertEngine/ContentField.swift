/// What a content template can say of an alert (`{name}` in `Docs/AlertEngine.md`'s "Content per
/// occurrence"): the beacon, where it is, how long it has been there, which delivery this is, when.
public enum ContentField: String, Hashable, Sendable, CaseIterable {
    /// The beacon's name from `beacons:`, else its id.
    case name
    /// The beacon's id (`ibeacon:UUID:major:minor`).
    case beacon
    /// The room a site hub places the beacon in.
    case room
    /// How long the beacon has been in range, at the event (`4m 10s`).
    case dwell
    /// Which delivery of the instance this is: 1 for the first, 2 for the first reminder, ….
    case attempt
    /// The event's time of day, `HH:MM`, in the alert's window time zone (else UTC).
    case time
    /// The event's date, `YYYY-MM-DD`, in the same time zone.
    case date
    /// The alert's id.
    case alert

    /// The fields, as a template writes them: `{name}, {beacon}, …`.
    public static var listed: String { allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ") }
}
