/// What the room rule remembers of one beacon between cycles (``RoomDecider``'s state): rooms
/// and floors as indices into the site layout's, -1 for none.
struct RoomMemory: Equatable {
    /// The room as hysteresis holds it, -1 while none: kept while the room is shown as unknown,
    /// so that weak evidence never changes the room for free.
    var room: Int32 = -1
    /// The room last reported (entered as a region), -1 while none or unknown.
    var shown: Int32 = -1
    /// Whether the latest cycle reported the room as unknown.
    var unknown = false
    /// The confidence of ``room`` at the latest cycle (0–1).
    var confidence: Float = 0
    /// The floor of the latest room (-1 while none): kept through unknown, so that a beacon that
    /// comes back changes floor only on the floor rule.
    var lastFloor: Int32 = -1
    /// The latest score of ``room`` from a gateway that heard the beacon (dBm): what the room
    /// counts with while its gateways are silent without reporting, or offline.
    var roomScore: Float = -.infinity
    /// The room that leads by the margin, -1 when none does.
    var candidate: Int32 = -1
    /// Since when ``candidate`` has led (ns).
    var candidateSince: Int64 = 0
}
