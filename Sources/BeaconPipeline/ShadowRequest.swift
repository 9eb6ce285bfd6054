import BeaconAlertEngine
import BeaconCore
import BeaconStrategyKit

/// What a running daemon may be asked about its shadow (``PipelineRunner/shadow(_:)``): one
/// candidate alert set at a time runs beside the live one and is compared with it.
public enum ShadowRequest: Sendable {
    /// Runs `alerts` as the shadow, named `name`, from now on (a shadow that runs is stopped
    /// first); its events go to `onEvent` (a shadow log), never to the sinks.
    case start(
        name: String, alerts: [PipelineAlert], registry: StrategyRegistry, onEvent: (@Sendable (RoutedEvent) -> Void)? = nil)
    /// Makes the shadow's alerts the live ones (as a replacement of the alerts would: a
    /// definition that is unchanged keeps its strategy's state) and stops the shadow.
    case promote(registry: StrategyRegistry)
    /// Stops the shadow.
    case stop

    /// Why a request could not be done.
    public enum Refusal: Error, CustomStringConvertible, Equatable {
        /// Promote or stop with no shadow running.
        case noShadow
        /// The shadow stopped on an error and is not promoted.
        case failed(String)

        public var description: String {
            switch self {
            case .noShadow: "no shadow runs: start one first (beacond shadow FILE, or shadow: in the configuration)"
            case .failed(let reason): "the shadow stopped on an error and is not promoted: \(reason)"
            }
        }
    }

    /// Does it to `pipeline` (on the pipeline's task).
    func apply(to pipeline: AlertPipeline) throws -> ShadowOutcome {
        let running = pipeline.attachedShadows.first { $0.comparison != nil }
        switch self {
        case .start(let name, let alerts, let registry, let onEvent):
            let shadow = try pipeline.attachShadow(alerts: alerts, registry: registry, comparedAs: name)
            shadow.onEvent = onEvent
            if let running { pipeline.detachShadow(running) }
            return ShadowOutcome(action: .started, name: name, alertIDs: shadow.alerts.map(\.id))
        case .promote(let registry):
            guard let running, let comparison = running.comparison else { throw Refusal.noShadow }
            if let failure = running.failure { throw Refusal.failed(failure) }
            try pipeline.replaceAlerts(running.alerts, registry: registry)
            pipeline.detachShadow(running)
            return ShadowOutcome(action: .promoted, name: comparison.name, alertIDs: running.alerts.map(\.id))
        case .stop:
            guard let running, let comparison = running.comparison else { throw Refusal.noShadow }
            pipeline.detachShadow(running)
            return ShadowOutcome(action: .stopped, name: comparison.name, alertIDs: running.alerts.map(\.id))
        }
    }
}

/// What a ``ShadowRequest`` did.
public struct ShadowOutcome: Sendable, Equatable {
    /// What was done.
    public enum Action: String, Sendable {
        case started, promoted, stopped
    }

    /// What was done.
    public var action: Action
    /// The candidate's name.
    public var name: String
    /// The candidate's alert ids (live now, after a promotion).
    public var alertIDs: [String]

    /// One line: `promoted candidate.yaml: lobby-dwell, lobby-gone are live`.
    public var summary: String {
        let ids = alertIDs.joined(separator: ", ")
        switch action {
        case .started: return "shadow \(name) started: \(ids) run beside the live alerts"
        case .promoted:
            return "shadow \(name) promoted: \(ids) are live (until a restart: put them in the configuration to keep them)"
        case .stopped: return "shadow \(name) stopped"
        }
    }
}
