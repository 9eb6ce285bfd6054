import BeaconCore
import BeaconSinks
import Logging

/// `retention.deadLetters`: forgets the dead letters whose event is older than the limit, looked
/// at on the pipeline's clock (the end of every input) at most every tenth of the limit, hourly
/// at most. It runs on the pipeline's task; the outbox is safe to write from there.
final class DeadLetterSweeper {
    let outbox: any Outbox
    let retention: Duration
    let logger: Logger
    private var nextSweep: Timestamp?
    /// How many dead letters it forgot.
    private(set) var forgotten = 0

    init(outbox: any Outbox, retention: Duration, logger: Logger) {
        self.outbox = outbox
        self.retention = retention
        self.logger = logger
    }

    /// How often it looks: a tenth of the limit, between a minute and an hour.
    static func interval(for retention: Duration) -> Duration {
        min(max(retention / 10, .seconds(60)), .seconds(3_600))
    }

    /// Sweeps when one is due at `now`.
    func sweep(at now: Timestamp) {
        if let nextSweep, now < nextSweep { return }
        nextSweep = now + Self.interval(for: retention)
        do {
            let dropped = try outbox.dropDeadLetters(eventsBefore: now - retention)
            forgotten += dropped
            if dropped > 0 {
                logger.notice(
                    "retention: forgot \(dropped) dead letter(s) older than \(retention.approximate) (retention.deadLetters)")
            }
        } catch {
            logger.error("retention: cannot forget old dead letters: \(error); they are kept, and tried again later")
        }
    }
}
