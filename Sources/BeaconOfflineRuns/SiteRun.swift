import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconRanging
import BeaconSite
import BeaconSiteLink
import BeaconSiteReport
import BeaconStrategyKit

/// A whole site in one process: packet ranging per gateway and a hub pipeline (fusion,
/// strategies, engine) fed with every gateway's per-cycle records, as `beacond hub` would receive
/// them. ``SiteReplay`` and ``SiteSimulation`` drive it with packets in time order.
///
/// Gateways close their cycles together, on the packets' time — as live gateways do on their
/// own clocks — so a gateway that hears nothing still reports the beacons within its grace.
final class SiteRun {
    /// The hub's pipeline.
    let hub: AlertPipeline
    /// The hub's fusion.
    let fusion: SiteFusion
    private var gateways: [PacketRanging] = []
    private var pending: [GatewayReportMessage] = []
    private let cycle: Duration
    private let gatewayIDs: [String]
    private var nextBoundary: Timestamp?
    private var batch = PacketBatch(byteCapacity: 64, packetCapacity: 1)
    /// Gateways (by index) that stop reporting at a time: their reports from then on are lost,
    /// as those of a gateway that died or lost the broker.
    var silenced: [Int: Timestamp] = [:]
    /// Called with every report a gateway sends the hub (its id and records), before the hub
    /// takes it.
    var reportObserver: ((_ gateway: String, _ records: [GatewayRecord]) -> Void)?

    /// Builds the gateways' packet ranging and the hub's pipeline.
    /// - Parameters:
    ///   - settings: the gateways, in the order packets name them, and the fusion.
    ///   - ranging: every gateway's ranging.
    ///   - alerts: the hub's alerts, and `registry` where their strategies come from.
    ///   - presence: when given, receives the presence lines of every fused cycle.
    ///   - beacons: the named beacons (their names and tags in events and presence lines).
    init(
        settings: HubSettings, ranging: RangingConfiguration, alerts: [PipelineAlert], registry: StrategyRegistry,
        presence: ((String) -> Void)?, beacons: BeaconDirectory = .empty
    ) throws {
        let fusion = try SiteFusion(layout: settings.layout, configuration: settings.fusion)
        let hub = try AlertPipeline(alerts: alerts, registry: registry, site: fusion)
        hub.beacons = beacons
        self.hub = hub
        self.fusion = fusion
        cycle = ranging.cycleLength
        if let presence {
            hub.cycleObserver = { [unowned hub] update in PresenceLine.write(update, hub: hub, to: presence) }
        }
        gateways = try settings.layout.gateways.map { _ in try PacketRanging(configuration: ranging) }
        gatewayIDs = settings.layout.gateways.map(\.id)
    }

    /// One packet heard by the gateway at index `gateway`; packets must come in time order.
    func receive(
        _ packet: UnsafeRawBufferPointer, linkType: LinkType, at timestamp: Timestamp, gateway: Int,
        emit: (RoutedEvent) throws -> Void
    ) throws {
        // Every gateway closes the cycles that ended before this packet, heard or not.
        if let boundary = nextBoundary, timestamp >= boundary {
            for index in gateways.indices { gateways[index].advance(to: timestamp) { report($0, gateway: index) } }
            nextBoundary = Self.boundary(after: timestamp, cycle: cycle)
        } else if nextBoundary == nil {
            nextBoundary = Self.boundary(after: timestamp, cycle: cycle)
        }
        batch.removeAll()
        batch.append(packet, linkType: linkType, timestamp: timestamp)
        gateways[gateway].ingest(batch) { report($0, gateway: gateway) }
        try forward(emit)
    }

    /// Closes every gateway's cycles up to `end`, and the hub's once their records are in.
    func finish(at end: Timestamp, emit: (RoutedEvent) throws -> Void) throws {
        for index in gateways.indices { gateways[index].advance(to: end) { report($0, gateway: index) } }
        try forward(emit)
        try hub.advance(to: end + hub.siteLateness + cycle, emit: emit)
    }

    /// A gateway's cycle, as the report it would send the hub (none when it tracks nothing).
    private func report(_ update: RangingUpdate, gateway: Int) {
        guard !update.beacons.isEmpty else { return }
        if let from = silenced[gateway], update.time >= from { return }
        let header = GatewayReportHeader(
            gateway: gatewayIDs[gateway], time: update.time, cycleLength: update.time - update.cycleStart,
            recordCount: update.beacons.count)
        let records = update.beacons.map(GatewayRecord.init)
        reportObserver?(gatewayIDs[gateway], records)
        pending.append(.decoded(header, records))
    }

    private func forward(_ emit: (RoutedEvent) throws -> Void) throws {
        guard !pending.isEmpty else { return }
        let reports = pending
        pending.removeAll(keepingCapacity: true)
        try hub.ingest(reports: reports, emit: emit)
    }

    private static func boundary(after time: Timestamp, cycle: Duration) -> Timestamp {
        let length = cycle.nanoseconds
        let t = time.nanosecondsSinceEpoch
        let (end, overflow) = (t / length + 1).multipliedReportingOverflow(by: length)
        return overflow ? .distantFuture : Timestamp(nanosecondsSinceEpoch: end)
    }
}
