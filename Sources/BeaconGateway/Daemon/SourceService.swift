import BeaconCore
import BeaconPipeline
import BeaconSiteLink
import ServiceLifecycle

/// The daemon's source as a service: feeds its batches to the pipeline's inbox and, for a live
/// source, ticks the pipeline once a second on the injected clock, so that cycles end and alerts
/// fall due while nothing is heard. It starts feeding once `ready` is answered (the remote alert
/// definitions' first check), says so to the daemon's ``Readiness``, and stops at the group's
/// graceful shutdown.
struct SourceService: Service {
    let feed: GatewayFeed
    let runner: PipelineRunner
    let clock: AnyTimestampClock
    let ready: OneShot<Void>?
    let lifecycle: GatewayLifecycle
    /// Told when the source starts, and when a hub's subscriptions are acknowledged.
    let readiness: Readiness
    /// How often a live source ticks the pipeline.
    var tick: Duration = .seconds(1)

    func run() async throws {
        try await cancelledAtShutdown { [self] in
            await ready?.value
            readiness.met(GatewayReadiness.source)
            do {
                switch feed {
                case .site(let subscription):
                    // A hub runs until it is stopped; cycles close on its clock, every 200 ms.
                    try await subscription.run(runner: runner, clock: clock, tick: .milliseconds(200)) { [readiness] in
                        readiness.met(GatewayReadiness.siteSubscription)
                    }
                case .reports(let source):
                    try await source.run(
                        send: { [runner] reports in try await runner.send(reports: reports) },
                        advance: { [runner] time in try await runner.advance(to: time) })
                    if !Task.isCancelled { lifecycle.markSourceEnded() }
                case .advertisements(let source, let isLive):
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        if isLive {
                            group.addTask {
                                while !Task.isCancelled {
                                    try await clock.sleep(for: tick)
                                    try await runner.advance(to: clock.now)
                                }
                            }
                        }
                        try await runner.feed(from: source)
                        if !Task.isCancelled { lifecycle.markSourceEnded() }
                        group.cancelAll()
                    }
                }
            } catch PipelineError.stopped {
                // The pipeline failed and stopped first: its error is the one the daemon reports
                // (a state file whose disk is full, …), not this consequence of it.
                return
            }
        }
    }
}
