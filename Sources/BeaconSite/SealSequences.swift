/// The sequences a signing gateway's seals have carried, as a stage of the hub: a report is taken
/// only with a sequence above the last one taken (the *floor*) and never twice. A live seal ahead
/// of the hub's clock (within the signature window) does not raise the floor — the gateway's next
/// report, sealed by its own clock, must still be taken — but is remembered, at most
/// ``maxAhead`` of them (past that, the floor rises to the oldest forgotten). A pure function of
/// the sequences and the hub's clock (`SealSequencesTests`).
struct SealSequences {
    /// Why a sequence is refused.
    enum Refusal: Equatable {
        /// Not above the floor (the last taken).
        case notAboveFloor(UInt64)
        /// Ahead of the floor, but taken already.
        case taken
    }

    /// How many sequences ahead of the hub's clock are remembered.
    static let maxAhead = 64

    /// The last sequence taken that was not ahead of the hub's clock (0 before any).
    private(set) var floor: UInt64 = 0
    /// The sequences taken ahead of the hub's clock, above the floor.
    private(set) var ahead: [UInt64] = []

    /// Why `sequence` cannot be taken, or `nil` when it can.
    func refusal(of sequence: UInt64) -> Refusal? {
        guard sequence > floor else { return .notAboveFloor(floor) }
        return ahead.contains(sequence) ? .taken : nil
    }

    /// Takes `sequence` (one ``refusal(of:)`` let through); `clock`: the hub's clock as a
    /// sequence (ns since the epoch) when live, `nil` in a replay (where every sequence raises
    /// the floor).
    mutating func take(_ sequence: UInt64, clock: UInt64?) {
        var raised = sequence
        if let clock, sequence > clock {
            raised = floor
            if ahead.count == Self.maxAhead { raised = max(raised, ahead.removeFirst()) }
            ahead.append(sequence)
        }
        floor = raised
        if !ahead.isEmpty { ahead.removeAll { $0 <= raised } }
    }
}
