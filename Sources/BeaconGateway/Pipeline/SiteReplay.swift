import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconRanging
import BeaconSimulator
import BeaconSite
import BeaconStrategyKit

/// A whole site replayed in one process on capture time: one capture per gateway, each through
/// its own ranging, the packets of all merged by timestamp; every gateway's per-cycle records
/// go to a hub pipeline (fusion, strategies, engine), as `beacond hub` would receive them.
///
/// Gateways close their cycles together, on the merged time — as live gateways do on their own
/// clocks — so a gateway that hears nothing still reports the beacons within its grace. Each
/// capture keeps its own clock; merging by timestamp assumes they agree (for captures from
/// machines without synchronised clocks, shift them first).
public final class SiteReplay {
    /// A packet of one gateway's capture.
    private struct Packet {
        var gateway: Int
        var timestamp: Timestamp
        var linkType: LinkType
        var bytes: [UInt8]
    }

    public let document: SiteReplayDocument
    /// The hub's pipeline (its statistics after the run).
    public let hub: AlertPipeline
    private var gateways: [AlertPipeline] = []
    private var pending: [GatewayReportMessage] = []
    /// Per capture: records read and unreadable.
    public private(set) var captureSummaries: [(path: String, records: Int, errors: [String: Int])] = []

    /// Builds the gateways' pipelines (ranging only) and the hub's (with `alerts`).
    /// - Parameters:
    ///   - document: the site's gateways, captures and settings.
    ///   - alerts: the hub's alerts.
    ///   - registry: where their strategies come from.
    ///   - presence: when given, receives the presence lines of every fused cycle (one JSON
    ///     object and a newline per beacon; see Docs/Site.md).
    public init(
        document: SiteReplayDocument, alerts: [PipelineAlert], registry: StrategyRegistry,
        presence: ((String) -> Void)? = nil
    ) throws {
        self.document = document
        let fusion = try SiteFusion(layout: document.hub.layout, configuration: document.hub.fusion)
        let hub = try AlertPipeline(alerts: alerts, registry: registry, site: fusion)
        self.hub = hub
        if let presence {
            hub.cycleObserver = { [unowned hub] update in PresenceLine.write(update, hub: hub, to: presence) }
        }
        for gateway in document.hub.layout.gateways {
            let pipeline = try AlertPipeline(alerts: [], ranging: document.ranging, registry: registry)
            let id = gateway.id
            pipeline.cycleObserver = { [unowned self] update in
                guard !update.beacons.isEmpty else { return }
                let header = GatewayReportHeader(
                    gateway: id, time: update.time, cycleLength: update.time - update.cycleStart,
                    recordCount: update.beacons.count)
                pending.append(.decoded(header, update.beacons.map(GatewayRecord.init)))
            }
            gateways.append(pipeline)
        }
    }

    /// Runs every capture to its end; alert events go to `emit`, in order.
    /// - Throws: a capture that cannot be opened, or what the pipelines throw.
    public func run(emit: (RoutedEvent) throws -> Void) async throws {
        var packets: [Packet] = []
        for (index, path) in document.captures.enumerated() {
            let source = try CaptureReplaySource(path: path, speed: nil)
            try await source.run { batch in
                batch.forEachPacket { record, bytes in
                    packets.append(
                        Packet(gateway: index, timestamp: record.timestamp, linkType: record.linkType, bytes: Array(bytes)))
                }
            }
            let statistics = source.statistics
            captureSummaries.append((path, statistics.recordsDelivered, statistics.errorsByKind))
        }
        // Stable: packets of one instant keep their gateway order.
        packets = packets.enumerated().sorted { a, b in
            a.element.timestamp != b.element.timestamp ? a.element.timestamp < b.element.timestamp : a.offset < b.offset
        }.map(\.element)
        let cycle = document.ranging.cycleLength
        var batch = PacketBatch(byteCapacity: 64, packetCapacity: 1)
        var nextBoundary: Timestamp?
        for packet in packets {
            // Every gateway closes the cycles that ended before this packet, heard or not.
            if let boundary = nextBoundary, packet.timestamp >= boundary {
                for gateway in gateways { try gateway.advance(to: packet.timestamp) { _ in } }
                nextBoundary = Self.boundary(after: packet.timestamp, cycle: cycle)
            } else if nextBoundary == nil {
                nextBoundary = Self.boundary(after: packet.timestamp, cycle: cycle)
            }
            batch.removeAll()
            batch.append(packet.bytes, linkType: packet.linkType, timestamp: packet.timestamp)
            try gateways[packet.gateway].ingest(batch) { _ in }
            try forward(emit)
        }
        if let last = packets.last?.timestamp {
            let end = last + cycle
            for gateway in gateways { try gateway.advance(to: end) { _ in } }
            try forward(emit)
            try hub.advance(to: end + hub.siteLateness + cycle, emit: emit)
        }
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
        return Timestamp(nanosecondsSinceEpoch: (t / length + 1) * length)
    }
}
