import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconDevices
import BeaconForeignNodes
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
/// Foreign nodes (`kind: espresense` …) take recorded MQTT messages instead of packets
/// (``receive(message:topic:at:gateway:emit:)``), ranged by a ``ForeignGatewayNode`` each.
final class SiteRun {
    /// The hub's pipeline.
    let hub: AlertPipeline
    /// The hub's fusion.
    let fusion: SiteFusion
    private var gateways: [PacketRanging] = []
    /// The foreign nodes, by gateway index.
    private var nodes: [Int: ForeignGatewayNode] = [:]
    /// Messages of foreign nodes refused, by reason.
    private(set) var refusedMessages: [String: Int] = [:]
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
    /// When set, the gateways' reports go here instead of to this run's hub: the hub is someone
    /// else's (a daemon's, `simulate SITE --serve`), and this run ranges the gateways only.
    var forwardReports: (([GatewayReportMessage]) -> Void)?

    /// Builds the gateways' packet ranging and the hub's pipeline.
    /// - Parameters:
    ///   - settings: the gateways, in the order packets name them, and the fusion.
    ///   - ranging: every gateway's ranging.
    ///   - alerts: the hub's alerts, and `registry` where their strategies come from.
    ///   - presence: when given, receives the presence lines of every fused cycle.
    ///   - beacons: the named beacons (their names and tags in events and presence lines).
    ///   - people: the people, placed by the hub from what they carry.
    ///   - devices: the enrolled phones and watches every gateway resolves.
    init(
        settings: HubSettings, ranging: RangingConfiguration, alerts: [PipelineAlert], registry: StrategyRegistry,
        presence: ((String) -> Void)?, beacons: BeaconDirectory = .empty, people: [Person] = [],
        devices: [EnrolledDevice] = []
    ) throws {
        let fusion = try SiteFusion(layout: settings.layout, configuration: settings.fusion)
        let hub = try AlertPipeline(alerts: alerts, registry: registry, site: fusion)
        hub.beacons = beacons
        hub.people = people
        self.hub = hub
        self.fusion = fusion
        cycle = ranging.cycleLength
        if let presence {
            try hub.observeSiteCycles(evidence: true) { update, facts in
                PresenceLine.write(update, facts: facts, named: beacons, to: presence)
            }
        }
        gateways = try settings.layout.gateways.map { _ in try PacketRanging(configuration: ranging, devices: devices) }
        gatewayIDs = settings.layout.gateways.map(\.id)
        for (index, gateway) in settings.layout.gateways.enumerated() {
            guard let endpoint = settings.foreignNodes[gateway.id] else { continue }
            nodes[index] = try ForeignGatewayNode(gateway: gateway.id, endpoint: endpoint, ranging: ranging, devices: devices)
        }
    }

    /// One recorded message of the foreign node at index `gateway`, received at `time`; messages
    /// and packets must come in time order.
    func receive(
        message payload: [UInt8], topic: String, at time: Timestamp, gateway: Int, emit: (RoutedEvent) throws -> Void
    ) throws {
        closeCycles(before: time)
        guard var node = nodes[gateway] else { return }
        let step = node.ingest(payload, topic: topic, receivedAt: time)
        nodes[gateway] = node
        take(step.reports, gateway: gateway)
        if let refusal = step.refusal(gateway: node.gateway, kind: node.endpoint.kind) {
            refusedMessages[refusal.reason.rawValue, default: 0] += 1
            pending.append(.refused(refusal))
        }
        try forward(emit)
    }

    /// Every gateway closes the cycles that ended before `timestamp`, heard or not.
    private func closeCycles(before timestamp: Timestamp) {
        if let boundary = nextBoundary, timestamp >= boundary {
            for index in gateways.indices { gateways[index].advance(to: timestamp) { report($0, gateway: index) } }
            advanceNodes(to: timestamp)
            nextBoundary = Self.boundary(after: timestamp, cycle: cycle)
        } else if nextBoundary == nil {
            nextBoundary = Self.boundary(after: timestamp, cycle: cycle)
        }
    }

    private func advanceNodes(to time: Timestamp) {
        for index in nodes.keys.sorted() {
            guard var node = nodes[index] else { continue }
            let reports = node.advance(to: time)
            nodes[index] = node
            take(reports, gateway: index)
        }
    }

    /// A foreign node's reports, as the hub would take them (a silenced node's are lost).
    private func take(_ reports: [GatewayReportMessage], gateway: Int) {
        for message in reports {
            guard case .decoded(let header, let records) = message else { continue }
            if let from = silenced[gateway], header.time >= from { continue }
            reportObserver?(gatewayIDs[gateway], records)
            pending.append(message)
        }
    }

    /// One packet heard by the gateway at index `gateway`; packets must come in time order.
    func receive(
        _ packet: UnsafeRawBufferPointer, linkType: LinkType, at timestamp: Timestamp, gateway: Int,
        emit: (RoutedEvent) throws -> Void
    ) throws {
        closeCycles(before: timestamp)
        batch.removeAll()
        batch.append(packet, linkType: linkType, timestamp: timestamp)
        gateways[gateway].ingest(batch) { report($0, gateway: gateway) }
        try forward(emit)
    }

    /// Closes every gateway's cycles up to `end`, and the hub's once their records are in.
    func finish(at end: Timestamp, emit: (RoutedEvent) throws -> Void) throws {
        for index in gateways.indices { gateways[index].advance(to: end) { report($0, gateway: index) } }
        advanceNodes(to: end)
        try forward(emit)
        if forwardReports == nil { try hub.advance(to: end + hub.siteLateness + cycle, emit: emit) }
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
        if let forwardReports {
            forwardReports(reports)
            return
        }
        try hub.ingest(reports: reports, emit: emit)
    }

    private static func boundary(after time: Timestamp, cycle: Duration) -> Timestamp {
        let length = cycle.nanoseconds
        let t = time.nanosecondsSinceEpoch
        let (end, overflow) = (t / length + 1).multipliedReportingOverflow(by: length)
        return overflow ? .distantFuture : Timestamp(nanosecondsSinceEpoch: end)
    }
}
