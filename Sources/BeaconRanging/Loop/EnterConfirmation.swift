/// When a beacon heard for the first time (or again after it dropped out of the updates) starts
/// to count: after ``minimumSightings`` sightings within ``window``, each at least
/// ``minimumRSSI`` when that is set. Until then the ranging loop tracks it but lists it in no
/// update and enters it in no region, so a single stray packet — a tag passing outside the wall,
/// a reflection, a neighbour's beacon at the edge of range — fires no `enter` and no region.
///
/// The default (one sighting, any RSSI) is the loop's old behaviour: every first sighting counts.
/// Once confirmed, a beacon stays listed until it is unseen for the missed-scan grace; it then
/// needs confirming again.
public struct EnterConfirmation: Hashable, Sendable {
    /// Sightings needed (1–255; default 1).
    public var minimumSightings: Int
    /// The time they must fall within, counted from the first (default 5 s).
    public var window: Duration
    /// The weakest RSSI that counts, dBm (`nil`, the default: any; a sighting without RSSI
    /// never counts when it is set).
    public var minimumRSSI: Double?

    /// A rule; the defaults confirm every first sighting.
    public init(minimumSightings: Int = 1, window: Duration = .seconds(5), minimumRSSI: Double? = nil) {
        self.minimumSightings = minimumSightings
        self.window = window
        self.minimumRSSI = minimumRSSI
    }

    /// Whether every first sighting confirms (the loop then skips the bookkeeping).
    public var confirmsAtOnce: Bool { minimumSightings <= 1 && minimumRSSI == nil }
}
