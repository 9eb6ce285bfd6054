import BeaconCore
import Foundation

/// What a content template is filled in from, for one event: what the pipeline knows of the
/// beacon when the event is made, and the event itself.
public struct ContentContext: Sendable {
    /// The event's alert.
    public var alertID: String
    /// The beacon.
    public var beacon: BeaconID
    /// Its name from `beacons:`, if it has one.
    public var name: String?
    /// Its room, if a site hub places it in one.
    public var room: String?
    /// How long it has been in range, if it is (a beacon gone has no dwell).
    public var dwell: Duration?
    /// Which delivery of the instance: 0 for the first, 1… for its reminders (``ContentField/attempt``
    /// says one more).
    public var attempt: Int
    /// When the event happens.
    public var time: Timestamp
    /// The zone of `{time}`, `{date}` and `by-day`: the alert's window's, else UTC.
    public var timeZone: TimeZone

    /// Creates a context.
    public init(
        alertID: String, beacon: BeaconID, name: String? = nil, room: String? = nil, dwell: Duration? = nil,
        attempt: Int = 0, time: Timestamp, timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!
    ) {
        self.alertID = alertID
        self.beacon = beacon
        self.name = name
        self.room = room
        self.dwell = dwell
        self.attempt = attempt
        self.time = time
        self.timeZone = timeZone
    }

    /// What a field says; `unknown` for a room or a dwell the pipeline does not know.
    public func value(of field: ContentField) -> String {
        switch field {
        case .name: name ?? beacon.description
        case .beacon: beacon.description
        case .room: room ?? "unknown"
        case .dwell: dwell.map { Duration.seconds($0.components.seconds).humanReadable } ?? "unknown"
        case .attempt: String(attempt + 1)
        case .time: String(localStamp.dropFirst(11).prefix(5))
        case .date: String(localStamp.prefix(10))
        case .alert: alertID
        }
    }

    /// The local day number of the event (days since 1970-01-01 in ``timeZone``).
    public var localDay: Int64 { ZonedClock(timeZone: timeZone).localDay(at: time.wholeSeconds) }

    /// The event's local wall-clock time written as RFC 3339 (its `Z` meaning nothing).
    private var localStamp: String {
        Timestamp(seconds: ZonedClock(timeZone: timeZone).localSeconds(at: time.wholeSeconds)).rfc3339String
    }
}
