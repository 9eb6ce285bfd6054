import BeaconAlertEngine
import BeaconCore
import BeaconSite
import BeaconSiteReport
import BeaconStrategyKit

/// What a running pipeline takes from its ``PipelineInbox``: each is one input, decided and
/// stored (one transaction) before the next.
public enum PipelineInput: Sendable {
    /// A source's batch of packets (a copy: a source lends its batch only for the call).
    case packets(PacketBatch)
    /// Gateways' reports, for a site hub's pipeline.
    case reports([GatewayReportMessage])
    /// The time has come to `Timestamp`: cycles end and alerts fall due while nothing is heard
    /// (a live source's clock tick).
    case advance(to: Timestamp)
    /// The source has ended: the last cycle is closed `closingAfter` its last packet, so that
    /// what it completed is evaluated.
    case sourceEnded(closingAfter: Duration)
    /// A fact from outside the radio (a posted named event). The reply is the time it was
    /// handled at and the events it emitted.
    case post(EngineFact, at: PostTime, reply: OneShot<Result<PipelinePostReceipt, any Error>>)
    /// An answer to a delivered alert (acknowledge, dismiss) or a suppression lifted. The reply
    /// is what it did, or the `AlertAnswerError` that says why it was not taken.
    case answer(AlertAnswerRequest, at: PostTime, reply: OneShot<Result<AlertAnswerOutcome, any Error>>)
    /// A new set of alerts (remote-administered configuration); the reply says whether it was taken.
    case replaceAlerts([PipelineAlert], StrategyRegistry, reply: OneShot<Result<Void, any Error>>)
    /// A shadow to start (replacing one that runs), to promote or to stop; the reply says what was done.
    case shadow(ShadowRequest, reply: OneShot<Result<ShadowOutcome, any Error>>)
    /// A request for a ``PipelineInspection`` (a status page): answered between two inputs,
    /// changes nothing.
    case inspect(reply: OneShot<Result<PipelineInspection, any Error>>)

    /// When a posted fact happens.
    public enum PostTime: Sendable {
        /// At this time (a live source: the wall clock's).
        case at(Timestamp)
        /// At the pipeline's latest time (a replay's or a simulation's own time); before its first
        /// input, at the time its restored state was decided through (a restarted simulation
        /// resumes there: an answer arriving first must not move its engine to the wall clock and
        /// deliver every reminder due before it); with neither, at the given time.
        case pipelineTime(orElse: Timestamp)
    }

    /// Answers the input's sender, if it waits for an answer, with `error`.
    func fail(_ error: any Error) {
        switch self {
        case .post(_, _, let reply): reply.resume(returning: .failure(error))
        case .answer(_, _, let reply): reply.resume(returning: .failure(error))
        case .replaceAlerts(_, _, let reply): reply.resume(returning: .failure(error))
        case .inspect(let reply): reply.resume(returning: .failure(error))
        case .shadow(_, let reply): reply.resume(returning: .failure(error))
        case .packets, .reports, .advance, .sourceEnded: break
        }
    }
}

/// What a posted fact did.
public struct PipelinePostReceipt: Sendable {
    /// The time it was handled at.
    public var time: Timestamp
    /// The events it emitted (the alerts it cancelled, and what fell due before it).
    public var events: [AlertEvent]
}

extension PipelineInput {
    /// Whether handling it may change the alerts in force (the runner then publishes their ids).
    var mayChangeAlerts: Bool {
        switch self {
        case .replaceAlerts, .shadow: true
        default: false
        }
    }
}
