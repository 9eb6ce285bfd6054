import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconStrategyKit
import Logging
import ServiceLifecycle

/// Keeps the running pipeline's alerts in line with a remote document: the first check (after
/// the cached last good set, for a start without network) happens before the source starts —
/// `ready` is answered then — and one follows every `checkEvery` on the injected clock. Each
/// new valid set is applied to the pipeline; every failure is logged while the last good set
/// stays in force.
struct RemoteAlertsService: Service {
    let remote: RemoteAlertDefinitions
    let runner: PipelineRunner
    let registry: StrategyRegistry
    let clock: AnyTimestampClock
    let ready: OneShot<Void>
    let logger: Logger

    func run() async throws {
        try await cancelledAtShutdown { [self] in
            if let cached = await remote.loadCache() { await apply(cached) }
            await apply(await remote.check(now: clock.now))
            await remote.settled()
            ready.resume()
            while !Task.isCancelled {
                try await clock.sleep(for: remote.configuration.checkEvery)
                await apply(await remote.check(now: clock.now))
                await remote.settled()
            }
        }
    }

    private func apply(_ outcome: RemoteAlertDefinitions.Outcome) async {
        if case .staged = outcome {
            await stage(outcome)
            return
        }
        guard case .updated = outcome else {
            if outcome != .unchanged { logger.warning("\(outcome.logLine)") }
            return
        }
        do {
            try await runner.replaceAlerts(try AlertPipeline.pipelineAlerts(await remote.definitions), registry: registry)
            logger.info("\(outcome.logLine)")
        } catch {
            logger.error("remote alerts: kept the last good set; the new set cannot run: \(error)")
        }
    }

    /// Runs the staged set as the shadow (replacing any shadow that runs).
    private func stage(_ outcome: RemoteAlertDefinitions.Outcome) async {
        guard let staged = await remote.staged, let name = await remote.stagedName else { return }
        do {
            let alerts = try AlertPipeline.pipelineAlerts(staged)
            let request = ShadowRequest.start(
                name: name, alerts: alerts, registry: registry, onEvent: Gateway.shadowLog(logger))
            _ = try await runner.shadow(request)
            logger.notice("\(outcome.logLine)")
        } catch {
            await remote.discardStaged()
            logger.error("remote alerts: kept the last good set; the new set cannot run as the shadow: \(error)")
        }
    }
}
