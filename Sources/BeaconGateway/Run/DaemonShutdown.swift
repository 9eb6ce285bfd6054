import BeaconCore

/// When a running daemon stops, and how: a state machine whose events (a signal, the gateway's
/// services ending, a linger running out) return the actions its ``DaemonRun`` performs. It holds
/// no task, no clock and no I/O, so its whole table is tested by stepping it.
///
/// | state | event | next | actions |
/// |---|---|---|---|
/// | running | signal | stopping | say "stopping…", stop the gateway |
/// | running | gateway ended, `afterSourceEnds: .stop` | finished | close the control endpoint |
/// | running | gateway ended, `.keepServing(for: d)` | lingering | say "…last state…", linger `d` (or until a signal) |
/// | running / stopping / lingering | gateway failed | finished | close the control endpoint |
/// | running | control endpoint failed | stopping | stop the gateway |
/// | stopping | gateway ended | finished | close the control endpoint |
/// | stopping / finished | signal | finished | say "second signal…", exit 130 |
/// | lingering | signal or linger elapsed | finished | close the control endpoint |
public struct DaemonShutdown: Sendable, Equatable {
    /// What the daemon does once its source has ended by itself (a replay, a simulation).
    public enum AfterSourceEnds: Sendable, Equatable {
        /// Stop: deliver what is left, close the control endpoint, return.
        case stop
        /// Keep the control endpoint (the status page) up for this long, or until a signal (`nil`).
        case keepServing(for: Duration?)
    }

    /// Where the daemon is.
    public enum State: Sendable, Equatable {
        /// The gateway's services are running.
        case running
        /// Told to stop: the source has stopped, the sinks get their last attempt.
        case stopping
        /// The source has ended; only the control endpoint is up.
        case lingering
        /// Everything is stopping or stopped; the run returns.
        case finished
    }

    /// What happened.
    public enum Event: Sendable, Equatable {
        /// SIGINT or SIGTERM (or a stop asked for in code).
        case signal
        /// The gateway's services have all returned.
        case gatewayEnded
        /// The gateway's services ended with an error.
        case gatewayFailed
        /// The linger time has passed.
        case lingerElapsed
        /// The control endpoint stopped with an error (the daemon does not run unobservable).
        case controlFailed
    }

    /// What the run must do.
    public enum Action: Sendable, Equatable {
        /// Tell the person at the terminal (standard error).
        case say(String)
        /// Stop the gateway: its source first, then a last attempt for each sink.
        case stopGateway
        /// Close the control endpoint (it answers nothing more).
        case closeControl
        /// Send ``Event/lingerElapsed`` after this long.
        case linger(Duration)
        /// Exit the process now with this status (what the outbox holds stays for the next start).
        case exit(Int32)
    }

    /// Where the daemon is now.
    public private(set) var state: State = .running
    /// What it does once its source has ended by itself.
    public let afterSourceEnds: AfterSourceEnds

    /// A machine in ``State/running``.
    public init(afterSourceEnds: AfterSourceEnds = .stop) {
        self.afterSourceEnds = afterSourceEnds
    }

    /// Steps the machine: the next state, and what to do to get there.
    public mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.running, .signal):
            state = .stopping
            return [.say("stopping (a second signal exits at once)"), .stopGateway]
        case (.stopping, .signal), (.finished, .signal):
            state = .finished
            return [.say("second signal, exiting now (undelivered events stay in the outbox)"), .exit(130)]
        case (.running, .gatewayEnded):
            switch afterSourceEnds {
            case .stop:
                state = .finished
                return [.closeControl]
            case .keepServing(let duration?):
                state = .lingering
                return [
                    .say("the source has ended; the status page shows its last state for \(duration.humanReadable)"),
                    .linger(duration),
                ]
            case .keepServing(nil):
                state = .lingering
                return [.say("the source has ended; the status page shows its last state until Ctrl-C")]
            }
        case (.stopping, .gatewayEnded), (.running, .gatewayFailed), (.stopping, .gatewayFailed),
            (.lingering, .gatewayFailed), (.lingering, .signal), (.lingering, .lingerElapsed):
            state = .finished
            return [.closeControl]
        case (.running, .controlFailed):
            state = .stopping
            return [.say("the control endpoint failed; stopping"), .stopGateway]
        case (.lingering, .controlFailed):
            state = .finished
            return []
        case (.stopping, .controlFailed), (.finished, .controlFailed),
            (.running, .lingerElapsed), (.stopping, .lingerElapsed), (.lingering, .gatewayEnded),
            (.finished, .gatewayEnded), (.finished, .gatewayFailed), (.finished, .lingerElapsed):
            return []
        }
    }
}
