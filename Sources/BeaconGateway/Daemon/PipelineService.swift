import BeaconAlertEngine
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconStrategyKit
import ServiceLifecycle
import Synchronization

/// The task that owns the daemon's pipeline (see ``PipelineRunner``): it takes the inbox's
/// inputs until the group's graceful shutdown, then handles what is still waiting and returns.
/// Every event it emits is already in each sink's outbox; it wakes the dispatchers and notes the
/// event in the status page's `AlertLog` (and, on a hub with a standby role, tells its lease). Beacons'
/// presence changes go to the state observers (``StateObserversService`` closes them, last).
final class PipelineService: Service, Sendable {
    let runner: PipelineRunner
    /// The pipeline, until ``run()`` takes it into its task.
    private let pipeline: Mutex<AlertPipeline?>
    private let notify: @Sendable () -> Void
    private let observers: [any BeaconStateObserver]
    private let alertLog: AlertLog
    private let committed: (@Sendable (AlertEvent) -> Void)?

    init(
        runner: PipelineRunner, pipeline: sending AlertPipeline, observers: [any BeaconStateObserver],
        alertLog: AlertLog, committed: (@Sendable (AlertEvent) -> Void)? = nil, notify: @escaping @Sendable () -> Void
    ) {
        self.committed = committed
        self.alertLog = alertLog
        self.runner = runner
        self.pipeline = Mutex(pipeline)
        self.observers = observers
        self.notify = notify
    }

    func run() async throws {
        guard let pipeline = pipeline.withLock({ $0.take() }) else { return }
        let observers = observers
        let alertLog = alertLog
        let committed = committed
        try await withGracefulShutdownHandler {
            try await runner.run(
                pipeline,
                emit: { routed in
                    alertLog.record(routed.event)
                    committed?(routed.event)
                    notify()
                },
                presence: observers.isEmpty
                    ? nil
                    : { changes in
                        for observer in observers { observer.observe(changes) }
                    })
        } onGracefulShutdown: {
            self.runner.finish()
        }
    }
}
