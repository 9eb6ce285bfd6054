import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconDevices
import BeaconForeignNodes
import BeaconPipeline
import BeaconRanging
import BeaconSimulator
import BeaconSite
import BeaconSiteReport
import BeaconStrategyKit
import Foundation

/// A whole site replayed in one process on capture time: one capture per gateway, each through
/// its own ranging, the packets of all merged by timestamp, the gateways' records fused by a hub
/// (see `SiteReplayDocument`).
///
/// Each capture keeps its own clock; merging by timestamp assumes they agree (for captures from
/// machines without synchronised clocks, shift them first).
public final class SiteReplay {
    /// A packet of one gateway's capture, or a message of a foreign node's recording (`topic`).
    private struct Packet {
        var gateway: Int
        var timestamp: Timestamp
        var linkType: LinkType
        var bytes: [UInt8]
        var topic: String? = nil
    }

    /// How a replay calibrates the hub's radio model.
    public enum Calibration: String, Sendable, CaseIterable {
        /// Two passes: the first fuses every capture to calibrate (the model a hub that has heard
        /// the recording would have), the second replays with that model from the start.
        case prefit
        /// One pass, calibrating as a live hub does (the first fit after `hub.calibration.interval`).
        case live
        /// One pass with the configured model (self-calibration off).
        case off
    }

    public let document: SiteReplayDocument
    private let site: SiteRun
    private let calibration: Calibration
    private let registry: StrategyRegistry
    /// What the hub's self-calibration found (after ``run(progress:emit:)``).
    /// `nil` when the hub does not calibrate (it is off, or fewer than three gateways have a position).
    public var calibrationStatus: CalibrationStatus? { site.fusion.isCalibrating ? site.fusion.calibrationStatus : nil }
    /// The hub's pipeline (its statistics after the run).
    public var hub: AlertPipeline { site.hub }
    /// Per capture: records read and unreadable (a foreign node's recording: its messages and
    /// the count of its bad lines).
    public private(set) var captureSummaries: [(path: String, records: Int, errors: [String: Int])] = []
    /// The bad lines of the foreign nodes' recordings, each `file:line: what` (once per file).
    public private(set) var recordingErrors: [String] = []
    /// Messages of foreign nodes refused (not what their kind sends), by reason (after ``run(progress:emit:)``).
    public var refusedMessages: [String: Int] { site.refusedMessages }

    /// Builds the gateways' pipelines (ranging only) and the hub's (with `alerts`).
    /// - Parameters:
    ///   - document: the site's gateways, captures and settings.
    ///   - alerts: the hub's alerts.
    ///   - registry: where their strategies come from.
    ///   - presence: when given, receives the presence lines of every fused cycle (one JSON
    ///     object and a newline per beacon; see Docs/Site.md).
    ///   - calibration: how the hub's radio model is calibrated (default: ``Calibration/prefit``).
    ///   - beacons: the named beacons (names and tags in events and presence lines).
    ///   - people: the people the hub places (`people:`).
    ///   - devices: the enrolled phones and watches every gateway and foreign node resolves.
    public init(
        document: SiteReplayDocument, alerts: [PipelineAlert], registry: StrategyRegistry,
        presence: ((String) -> Void)? = nil, calibration: Calibration = .prefit, beacons: BeaconDirectory = .empty,
        people: [Person] = [], devices: [EnrolledDevice] = []
    ) throws {
        var document = document
        if calibration == .off { document.hub.fusion.calibration.enabled = false }
        self.document = document
        self.calibration = calibration
        self.registry = registry
        self.devices = devices
        site = try SiteRun(
            settings: document.hub, ranging: document.ranging, alerts: alerts, registry: registry, presence: presence,
            beacons: beacons, people: people, devices: devices)
    }

    /// The enrolled devices the gateways resolve (the calibration's first pass resolves them too).
    private let devices: [EnrolledDevice]

    /// Runs every capture to its end; alert events go to `emit`, in order; `progress` is told
    /// the share of the work done (0…1), now and then.
    /// - Throws: a capture that cannot be opened, or what the pipelines throw.
    public func run(progress: ((Double) -> Void)? = nil, emit: (RoutedEvent) throws -> Void) async throws {
        var packets: [Packet] = []
        for (index, path) in document.captures.enumerated() {
            if document.hub.foreignNodes[document.hub.layout.gateways[index].id] != nil {
                let recording = try Self.recording(path)
                for message in recording.messages {
                    packets.append(
                        Packet(
                            gateway: index, timestamp: message.time, linkType: .hciH4, bytes: message.payload,
                            topic: message.topic))
                }
                captureSummaries.append(
                    (
                        path, recording.messages.count,
                        recording.errors.isEmpty ? [:] : ["lines": recording.errors.count]
                    ))
                recordingErrors += recording.errors.filter { !recordingErrors.contains($0) }
                continue
            }
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
        if calibration == .prefit, document.hub.fusion.calibration.enabled, let last = packets.last?.timestamp {
            let first = try SiteRun(
                settings: document.hub, ranging: document.ranging, alerts: [], registry: registry, presence: nil,
                devices: devices)
            try feed(packets, to: first, emit: { _ in }) { progress?($0 / 2) }
            first.fusion.calibrateNow(at: last)
            site.fusion.restore(first.fusion.calibrationStatus)
            try feed(packets, to: site, emit: emit) { progress?(0.5 + $0 / 2) }
        } else {
            try feed(packets, to: site, emit: emit) { progress?($0) }
        }
    }

    /// A foreign node's recording (`beacond record-mqtt`), read whole.
    private static func recording(_ path: String) throws -> ForeignRecording {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw SiteReplayError(message: "\(path): cannot read the recording: \(error.localizedDescription)")
        }
        return ForeignRecording(text: text, file: path)
    }

    private func feed(
        _ packets: [Packet], to site: SiteRun, emit: (RoutedEvent) throws -> Void, progress: (Double) -> Void
    ) throws {
        let step = max(1, packets.count / 200)
        for (index, packet) in packets.enumerated() {
            if index % step == 0 { progress(Double(index) / Double(max(packets.count, 1))) }
            if let topic = packet.topic {
                try site.receive(message: packet.bytes, topic: topic, at: packet.timestamp, gateway: packet.gateway, emit: emit)
                continue
            }
            try packet.bytes.withUnsafeBytes { bytes in
                try site.receive(bytes, linkType: packet.linkType, at: packet.timestamp, gateway: packet.gateway, emit: emit)
            }
        }
        if let last = packets.last?.timestamp {
            try site.finish(at: last + document.ranging.cycleLength, emit: emit)
        }
        progress(1)
    }
}
