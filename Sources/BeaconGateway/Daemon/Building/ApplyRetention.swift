import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconSinks
import Logging

/// `retention:` on a daemon's pipeline: idle alert histories swept on its cycles, and dead letters
/// on its clock after whatever already watches it (a site gateway's heartbeat). Presence lines and
/// recordings rotate where they are written.
func applyRetention(_ retention: RetentionSettings, to pipeline: AlertPipeline, outbox: any Outbox, logger: Logger) {
    pipeline.historyRetention = retention.history
    guard let keep = retention.deadLetters else { return }
    let sweeper = DeadLetterSweeper(outbox: outbox, retention: keep, logger: logger)
    let earlier = pipeline.cycleClockObserver
    pipeline.cycleClockObserver = { time in
        earlier?(time)
        sweeper.sweep(at: time)
    }
}
