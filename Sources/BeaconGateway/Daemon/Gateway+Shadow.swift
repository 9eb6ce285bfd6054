import BeaconAlertEngine
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import Logging

extension Gateway {
    /// Starts, promotes or stops the shadow alert set (the control endpoint's `POST /shadow…`,
    /// `beacond shadow` and `beacond promote`), and logs what was done.
    /// - Throws: `ShadowCandidateError` for a set that cannot run, `ShadowRequest.Refusal` for
    ///   a promotion or a stop without a shadow, or what stopped the pipeline.
    public func shadow(_ command: ShadowControlRequest) async throws -> ShadowOutcome {
        let request: ShadowRequest
        switch command {
        case .start(let name, let document):
            let alerts = try Self.candidateAlerts(
                String(decoding: document, as: UTF8.self), name: name, configuration: configuration)
            request = .start(name: name, alerts: alerts, registry: registry, onEvent: Self.shadowLog(logger))
        case .promote:
            request = .promote(registry: registry)
        case .stop:
            request = .stop
        }
        let outcome: ShadowOutcome
        do {
            outcome = try await runner.shadow(request)
        } catch PipelineError.stopped {
            throw PipelineError.stopped
        } catch let error as PipelineError {
            // A candidate the pipeline refuses; for a promotion, the live alerts are unchanged.
            guard case .start = command else { throw error }
            throw ShadowCandidateError("the candidate cannot run: \(error)")
        }
        logger.notice("\(outcome.summary)")
        await settleStagedRemoteSet(after: outcome)
        return outcome
    }

    /// Tells the remote alert definitions (`stage: true`) what became of their staged set: promoted,
    /// it is the set in force (and the cached one); stopped or replaced by another shadow, it is
    /// set aside.
    private func settleStagedRemoteSet(after outcome: ShadowOutcome) async {
        guard let remoteAlerts, remoteAlerts.configuration.stage else { return }
        let isStaged = remoteAlerts.isStagedName(outcome.name)
        switch outcome.action {
        case .promoted where isStaged:
            // By name: a newer version may have been staged since this one was promoted.
            if await remoteAlerts.promoteStaged(named: outcome.name) != nil {
                logger.notice("remote alerts: \(outcome.name) is the set in force (and the cached one)")
            }
        case .stopped where isStaged, .started where !isStaged:
            guard await remoteAlerts.staged != nil else { return }
            await remoteAlerts.discardStaged()
            logger.notice("remote alerts: the staged version is set aside; the next version will be staged")
        default:
            break
        }
    }

    /// The shadow log: each of the shadow's events as a log line, never a sink's delivery.
    static func shadowLog(_ logger: Logger) -> @Sendable (RoutedEvent) -> Void {
        { routed in
            let event = routed.event
            logger.info(
                "shadow event",
                metadata: [
                    "event": "\(event.kind.rawValue)", "alert": "\(event.alertID)", "beacon": "\(event.beacon)",
                    "time": "\(event.time.rfc3339String)",
                ])
        }
    }

    /// The alerts of a candidate document (an alerts file's `alerts:` list, or the list alone),
    /// as the pipeline runs them — checked as a remote set is against `configuration`'s sinks (an
    /// alert with callbacks needs a sink that sends them).
    /// - Throws: `ShadowCandidateError` saying what is wrong and where.
    static func candidateAlerts(
        _ text: String, name: String, configuration: GatewayConfiguration
    ) throws -> [PipelineAlert] {
        do {
            let definitions = try RemoteAlertDefinitions.parse(
                text, file: name, beacons: configuration.beacons, ignoringOtherKeys: true)
            try RemoteCallbackCheck.check(
                definitions, sinksSendCallbacks: configuration.sinks.contains { $0.settings.sendsCallbacks })
            return try AlertPipeline.pipelineAlerts(definitions)
        } catch {
            throw ShadowCandidateError("\(error)")
        }
    }
}
