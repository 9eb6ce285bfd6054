import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconTestSupport
import Foundation

/// Packets and alerts for the runner's tests.
enum PipelineFixtures {
    static let uuid = UUID(uuidString: "74278BDA-B644-4520-8F0C-720EAF059935")!
    static let t0 = Timestamp(rfc3339: "2025-01-01T09:00:00Z")!

    /// A batch of one report per (second, minor), stamped `t0 + second`.
    static func batch(_ sightings: [(seconds: Double, minor: UInt16)]) -> PacketBatch {
        HCIReportBuilder.batch(uuid: uuid, sightings.map { (t0 + .milliseconds(Int64($0.seconds * 1000)), $0.minor) })
    }

    /// `enter` for every beacon of the uuid, delivered `delay` after it fires, cancelled by the
    /// event `closing`.
    static func enterAlert(id: String = "welcome", delay: Duration? = nil) throws -> PipelineAlert {
        let policy = try AlertPolicy(delay: delay, cancelOn: [.event("closing")])
        return PipelineAlert(
            id: id, match: BeaconMatch(.uuid(uuid, major: nil, minor: nil)), strategy: "enter",
            rule: AlertRule(id: id, policy: policy))
    }
}

/// A source that delivers its batches, in order, then ends.
struct ScriptedSource: AdvertisementSource {
    let batches: [PacketBatch]
    var name: String { "scripted" }

    func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
        for batch in batches { try await deliver(batch) }
    }
}
