import BeaconAlertEngine
import BeaconDevices
import BeaconSite

/// Counters of what a pipeline has processed.
public struct PipelineStatistics: Hashable, Sendable {
    /// Packets received from the source.
    public var packets = 0
    /// Advertising reports decoded from them.
    public var advertisements = 0
    /// Reports that carried a beacon identity (iBeacon, AltBeacon, Eddystone-UID).
    public var sightings = 0
    /// Packets or reports that could not be decoded, by error kind.
    public var malformedByKind: [String: Int] = [:]
    /// Ranging cycles evaluated.
    public var cycles = 0
    /// Alert events emitted, by alert id and kind (`lobby-dwell/delivered`).
    public var eventsByAlert: [String: Int] = [:]
    /// Delivered alert instances waiting for an answer, by priority (the badge).
    public var unanswered = UnansweredAlerts()
    /// Sightings of new beacons refused at the ranging loop's cap on tracked beacons.
    public var refusedBeacons = 0
    /// New beacons refused (or displaced by louder ones) because a cycle brought in
    /// `ranging.maxNewPerCycle` already.
    public var refusedNewcomers = 0
    /// Beacons evicted to keep room under that cap.
    public var cappedEvictions = 0
    /// Heap bytes the ranging loop has reserved for the beacons it tracks (its buffers never
    /// shrink, so this is the most it held; the budget is 512 bytes per tracked beacon).
    public var rangingReservedBytes = 0
    /// A site hub's fusion counters (`nil` for one gateway's pipeline), with the reports it
    /// refused by reason.
    public var site: SiteFusionStatistics?
    /// What resolving enrolled devices' private addresses did (`nil`: no `devices:`).
    public var deviceResolution: PrivateAddressResolver.Statistics?
    /// The people present, and how many are in each room (`people:`; empty without).
    public var peoplePresent = 0
    public var peopleByRoom: [String: Int] = [:]

    public init() {}

    /// Malformed packets and reports, all kinds.
    public var malformed: Int { malformedByKind.values.reduce(0, +) }
}
