import BeaconCore
import BeaconSinks
import Logging

/// `retention.deadLetters`: forgets the dead letters whose event is older than the limit, looked
/// at on the pipeline's clock (the end of every input) as its ``RetentionSweep`` says. It runs on
/// the pipeline's task; the outbox is safe to write from there.
final class DeadLetterSweeper {
    let outbox: any Outbox
    let logger: Logger
    private(set) var schedule: RetentionSweep
    /// How many dead letters it forgot.
    private(set) var forgotten = 0

    init(outbox: any Outbox, retention: Duration, logger: Logger) {
        self.outbox = outbox
        schedule = RetentionSweep(limit: retention)
        self.logger = logger
    }

    /// Sweeps when one is due at `now`.
    func sweep(at now: Timestamp) {
        guard let cutoff = schedule.cutoff(at: now) else { return }
        do {
            let dropped = try outbox.dropDeadLetters(eventsBefore: cutoff)
            forgotten += dropped
            if dropped > 0 {
                logger.notice(
                    "retention: forgot \(dropped) dead letter(s) older than \(schedule.limit.approximate) (retention.deadLetters)"
                )
            }
        } catch {
            logger.error("retention: cannot forget old dead letters: \(error); they are kept, and tried again later")
        }
    }
}
