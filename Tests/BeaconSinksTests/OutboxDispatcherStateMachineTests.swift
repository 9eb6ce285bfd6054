import BeaconCore
import BeaconSinks
import Testing

/// The dispatcher's decisions as tables: each scenario is a list of rows (event → action, next
/// state), its times read from a `ManualClock` that only the table advances.
@Suite("OutboxDispatcherStateMachine")
struct OutboxDispatcherStateMachineTests {
    typealias Machine = OutboxDispatcherStateMachine
    typealias State = Machine.State
    typealias Action = Machine.Action

    /// 1 s doubling, no jitter (the unit is always 0.5).
    static let backoff = RetryBackoff(initial: .seconds(1), multiplier: 2, maximum: .seconds(60), jitter: 0)

    /// An input of a row.
    enum Event: Sendable {
        case start, notified, wakeupsEnded, roundDelivered, backoffElapsed, backoffInterrupted
        case drainRequested, finishRequested, cancelled
        /// The round stopped on "HTTP 500"; the first entry failed `attempts` times in all.
        case roundFailed(attempts: Int)
        /// Not an event: the manual clock moves (the row's action and state are then unchanged).
        case advance(Duration)

    }

    /// One row: `event` returns `action` and leaves the machine in `state`.
    struct Row: Sendable {
        let event: Event
        let action: Action
        let state: State
    }

    /// A table: the rows in order, from a new machine.
    struct Scenario: CustomTestStringConvertible, Sendable {
        let name: String
        let rows: [Row]
        var testDescription: String { name }
    }

    /// `seconds` after the manual clock's start.
    static func t(_ seconds: Double) -> Timestamp { .epoch + .milliseconds(Int64(seconds * 1000)) }

    static func retrying(_ attempt: Int, _ seconds: Int64) -> OutboxDispatcher.Report {
        .retrying(attempt: attempt, delay: .seconds(seconds), error: "HTTP 500")
    }

    static let scenarios: [Scenario] = [
        Scenario(
            name: "idle → delivering → delivered → idle, each notification a round",
            rows: [
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(event: .roundDelivered, action: .waitForNotification, state: .idle(.none)),
                Row(event: .notified, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(event: .roundDelivered, action: .waitForNotification, state: .idle(.none)),
            ]),
        Scenario(
            name: "a failure backs off until t (announced once), the retry comes at t, not before",
            rows: [
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(
                    event: .roundFailed(attempts: 1), action: .sleep(until: t(1), announcing: retrying(1, 1)),
                    state: .backingOff(until: t(1), attempt: 1, .none)),
                Row(event: .advance(.milliseconds(500)), action: .none, state: .backingOff(until: t(1), attempt: 1, .none)),
                Row(
                    event: .backoffElapsed, action: .sleep(until: t(1), announcing: nil),
                    state: .backingOff(until: t(1), attempt: 1, .none)),
                Row(event: .advance(.milliseconds(500)), action: .none, state: .backingOff(until: t(1), attempt: 1, .none)),
                Row(event: .backoffElapsed, action: .deliverBacklog, state: .delivering(attempt: 1, .none)),
                Row(
                    event: .roundFailed(attempts: 2), action: .sleep(until: t(3), announcing: retrying(2, 2)),
                    state: .backingOff(until: t(3), attempt: 2, .none)),
                Row(event: .advance(.seconds(2)), action: .none, state: .backingOff(until: t(3), attempt: 2, .none)),
                Row(event: .backoffElapsed, action: .deliverBacklog, state: .delivering(attempt: 2, .none)),
                Row(event: .roundDelivered, action: .waitForNotification, state: .idle(.none)),
                Row(event: .notified, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(
                    event: .roundFailed(attempts: 1), action: .sleep(until: t(4), announcing: retrying(1, 1)),
                    state: .backingOff(until: t(4), attempt: 1, .none)),
            ]),
        Scenario(
            name: "a restart's first entry with 4 failures kept waits as its 5th attempt calls for",
            rows: [
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(
                    event: .roundFailed(attempts: 5), action: .sleep(until: t(16), announcing: retrying(5, 16)),
                    state: .backingOff(until: t(16), attempt: 5, .none)),
            ]),
        Scenario(
            name: "a drain while backing off retries as usual and ends once a round empties the backlog",
            rows: [
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(
                    event: .roundFailed(attempts: 1), action: .sleep(until: t(1), announcing: retrying(1, 1)),
                    state: .backingOff(until: t(1), attempt: 1, .none)),
                Row(event: .drainRequested, action: .wake, state: .backingOff(until: t(1), attempt: 1, .whenDrained)),
                Row(event: .advance(.seconds(1)), action: .none, state: .backingOff(until: t(1), attempt: 1, .whenDrained)),
                Row(event: .backoffElapsed, action: .deliverBacklog, state: .delivering(attempt: 1, .whenDrained)),
                Row(
                    event: .roundFailed(attempts: 2), action: .sleep(until: t(3), announcing: retrying(2, 2)),
                    state: .backingOff(until: t(3), attempt: 2, .whenDrained)),
                Row(event: .advance(.seconds(2)), action: .none, state: .backingOff(until: t(3), attempt: 2, .whenDrained)),
                Row(event: .backoffElapsed, action: .deliverBacklog, state: .delivering(attempt: 2, .whenDrained)),
                Row(event: .roundDelivered, action: .finish, state: .finished),
            ]),
        Scenario(
            name: "a drain while idle makes one more round, then ends",
            rows: [
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(event: .roundDelivered, action: .waitForNotification, state: .idle(.none)),
                Row(event: .drainRequested, action: .wake, state: .idle(.whenDrained)),
                Row(event: .notified, action: .deliverBacklog, state: .delivering(attempt: 0, .whenDrained)),
                Row(event: .roundDelivered, action: .finish, state: .finished),
            ]),
        Scenario(
            name: "a finish while delivering lets the round end, then ends without a backoff",
            rows: [
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(event: .finishRequested, action: .stopWaiting, state: .delivering(attempt: 0, .afterLastAttempt)),
                Row(event: .roundFailed(attempts: 1), action: .finish, state: .finished),
            ]),
        Scenario(
            name: "a finish interrupts a backoff for one last round; a later drain does not undo it",
            rows: [
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(
                    event: .roundFailed(attempts: 1), action: .sleep(until: t(1), announcing: retrying(1, 1)),
                    state: .backingOff(until: t(1), attempt: 1, .none)),
                Row(
                    event: .finishRequested, action: .stopWaiting, state: .backingOff(until: t(1), attempt: 1, .afterLastAttempt)),
                Row(event: .drainRequested, action: .wake, state: .backingOff(until: t(1), attempt: 1, .afterLastAttempt)),
                Row(event: .backoffInterrupted, action: .deliverBacklog, state: .delivering(attempt: 1, .afterLastAttempt)),
                Row(event: .roundFailed(attempts: 2), action: .finish, state: .finished),
            ]),
        Scenario(
            name: "a wait that ends early after a finish does not sleep again: the last round comes",
            rows: [
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(
                    event: .roundFailed(attempts: 1), action: .sleep(until: t(1), announcing: retrying(1, 1)),
                    state: .backingOff(until: t(1), attempt: 1, .none)),
                Row(
                    event: .finishRequested, action: .stopWaiting,
                    state: .backingOff(until: t(1), attempt: 1, .afterLastAttempt)),
                Row(event: .backoffElapsed, action: .deliverBacklog, state: .delivering(attempt: 1, .afterLastAttempt)),
                Row(event: .roundDelivered, action: .finish, state: .finished),
            ]),
        Scenario(
            name: "a cancelled backoff ends the dispatcher",
            rows: [
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(
                    event: .roundFailed(attempts: 0), action: .sleep(until: t(1), announcing: retrying(1, 1)),
                    state: .backingOff(until: t(1), attempt: 1, .none)),
                Row(event: .backoffInterrupted, action: .finish, state: .finished),
            ]),
        Scenario(
            name: "a finish while idle ends the notifications, then one last round",
            rows: [
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(event: .roundDelivered, action: .waitForNotification, state: .idle(.none)),
                Row(event: .finishRequested, action: .stopWaiting, state: .idle(.afterLastAttempt)),
                Row(event: .wakeupsEnded, action: .deliverBacklog, state: .delivering(attempt: 0, .afterLastAttempt)),
                Row(event: .roundDelivered, action: .finish, state: .finished),
            ]),
        Scenario(
            name: "notifications that end without a finish (a cancellation) end the dispatcher",
            rows: [
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(event: .roundDelivered, action: .waitForNotification, state: .idle(.none)),
                Row(event: .wakeupsEnded, action: .finish, state: .finished),
            ]),
        Scenario(
            name: "a finish before the start makes one round, then ends",
            rows: [
                Row(event: .finishRequested, action: .stopWaiting, state: .initial(.afterLastAttempt)),
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .afterLastAttempt)),
                Row(event: .roundDelivered, action: .finish, state: .finished),
            ]),
        Scenario(
            name: "a cancellation before a round ends the dispatcher",
            rows: [
                Row(event: .start, action: .deliverBacklog, state: .delivering(attempt: 0, .none)),
                Row(event: .cancelled, action: .finish, state: .finished),
                Row(event: .notified, action: .none, state: .finished),
            ]),
    ]

    @Test("each row's event returns its action and leaves its state", arguments: scenarios)
    func table(_ scenario: Scenario) {
        let clock = ManualClock()
        var machine = Machine(backoff: Self.backoff, maxAttempts: 10)
        #expect(machine.state == .initial(.none))
        for (index, row) in scenario.rows.enumerated() {
            let action = Self.apply(row.event, to: &machine, clock: clock)
            #expect(action == row.action, "row \(index + 1): \(row.event)")
            #expect(machine.state == row.state, "row \(index + 1): \(row.event)")
        }
    }

    static func apply(_ event: Event, to machine: inout Machine, clock: ManualClock) -> Action {
        switch event {
        case .start: machine.start()
        case .notified: machine.notified()
        case .wakeupsEnded: machine.wakeupsEnded()
        case .roundDelivered: machine.roundDelivered()
        case .roundFailed(let attempts):
            machine.roundFailed(error: "HTTP 500", attempts: attempts, now: clock.now, unit: 0.5)
        case .backoffElapsed: machine.backoffElapsed(now: clock.now)
        case .backoffInterrupted: machine.backoffInterrupted()
        case .drainRequested: machine.drainRequested()
        case .finishRequested: machine.finishRequested()
        case .cancelled: machine.cancelled()
        case .advance(let duration):
            {
                clock.advance(by: duration)
                return Action.none
            }()
        }
    }
}
