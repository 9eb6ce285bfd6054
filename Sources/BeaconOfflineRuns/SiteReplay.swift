import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconRanging
import BeaconSimulator
import BeaconStrategyKit

/// A whole site replayed in one process on capture time: one capture per gateway, each through
/// its own ranging, the packets of all merged by timestamp, the gateways' records fused by a hub
/// (see `SiteReplayDocument`).
///
/// Each capture keeps its own clock; merging by timestamp assumes they agree (for captures from
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
    private let site: SiteRun
    /// The hub's pipeline (its statistics after the run).
    public var hub: AlertPipeline { site.hub }
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
        site = try SiteRun(
            settings: document.hub, ranging: document.ranging, alerts: alerts, registry: registry, presence: presence)
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
        for packet in packets {
            try packet.bytes.withUnsafeBytes { bytes in
                try site.receive(bytes, linkType: packet.linkType, at: packet.timestamp, gateway: packet.gateway, emit: emit)
            }
        }
        if let last = packets.last?.timestamp {
            try site.finish(at: last + document.ranging.cycleLength, emit: emit)
        }
    }
}
