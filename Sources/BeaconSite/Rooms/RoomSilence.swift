/// What the silence of a room's gateways means: under the gateways' rule, for a beacon none of
/// them heard lately; under the rule on outlined rooms, for the beacon's room every cycle.
enum RoomSilence: Equatable {
    /// A gateway of the room reports: it did not hear the beacon (absence).
    case reporting
    /// None reports, not all are offline yet (no evidence either way).
    case quiet
    /// All are offline (the room cannot be told).
    case offline
}
