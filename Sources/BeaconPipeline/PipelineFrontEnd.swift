import BeaconCore
import BeaconRanging

/// What turns a pipeline's input into one `RangingUpdate` per cycle for the decision stage:
/// packet ranging on a gateway (`PacketRanging`), the fusion of gateways' reports on a site hub
/// (`SiteFusion`).
///
/// A front end calls back with each cycle it closes; it is never read while it calls back (the
/// decision stage gets what it needs as arguments), and it never reads a clock: time comes from
/// its input and from `advance(to:onUpdate:)`.
package protocol PipelineFrontEnd {
    /// The length of its cycles.
    var cycleLength: Duration { get }
    /// How long after a cycle's end it closes that cycle (zero when it closes at once): what a
    /// source's end adds so that the last cycle is closed.
    var lateness: Duration { get }
    /// The start of the cycle being filled — or, before the first, of the cycle its clock has
    /// reached — once it has seen a time: the decision stage's clock between two cycles.
    var cycleClock: Timestamp? { get }
    /// Beacons it tracks (listed, in grace, or awaiting eviction).
    var trackedCount: Int { get }
    /// The update of the latest cycle closed (empty before the first).
    var latestUpdate: RangingUpdate { get }
    /// The regions (or rooms) strategies may name.
    var regionIDs: [String] { get }
    /// Why a strategy may not name `region`, listing what it may name.
    func unknownRegionMessage(_ region: String) -> String
    /// Closes every cycle that ended by `now`, calling `onUpdate` with each, in order.
    func advance(to now: Timestamp, onUpdate: (RangingUpdate) throws -> Void) throws
    /// Adds its counters to `statistics`.
    func contribute(to statistics: inout PipelineStatistics)
    /// Adds its beacons (and a site's layout and evidence) to `inspection`.
    func contribute(to inspection: inout PipelineInspection)
}

extension PipelineFrontEnd {
    /// The message for a region not among `regionIDs`: `what`, then the known ones.
    func listingRegions(after what: String, suffix: String = "") -> String {
        let known = regionIDs.isEmpty ? "none is configured" : "known: " + regionIDs.joined(separator: ", ") + suffix
        return "\(what) (\(known))"
    }
}
