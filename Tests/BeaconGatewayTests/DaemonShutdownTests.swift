import BeaconGateway
import Testing

/// The daemon's shutdown as tables: each scenario is a list of rows (event → actions, next
/// state) from a new machine. Old code: the decisions were spread over a second signal handler
/// beside the service group's own, a flag in `simulate --serve` and a sleep after its run.
@Suite("DaemonShutdown: when a daemon stops, stepped as tables")
struct DaemonShutdownTests {
    typealias Machine = DaemonShutdown

    /// One row: `event` returns `actions` and leaves the machine in `state`.
    struct Row: Sendable {
        let event: Machine.Event
        let actions: [Machine.Action]
        let state: Machine.State
    }

    /// A table: the rows in order, from a new machine with `afterSourceEnds`.
    struct Scenario: CustomTestStringConvertible, Sendable {
        let name: String
        let afterSourceEnds: Machine.AfterSourceEnds
        let rows: [Row]
        var testDescription: String { name }
    }

    static let stopping = Machine.Action.say("stopping (a second signal exits at once)")
    static let secondSignal = Machine.Action.say("second signal, exiting now (undelivered events stay in the outbox)")

    static let scenarios: [Scenario] = [
        Scenario(
            name: "a signal stops the gateway; the endpoint closes once the gateway has ended",
            afterSourceEnds: .stop,
            rows: [
                Row(event: .signal, actions: [stopping, .stopGateway], state: .stopping),
                Row(event: .gatewayEnded, actions: [.closeControl], state: .finished),
            ]),
        Scenario(
            name: "a second signal while the sinks drain exits at once with 130",
            afterSourceEnds: .stop,
            rows: [
                Row(event: .signal, actions: [stopping, .stopGateway], state: .stopping),
                Row(event: .signal, actions: [secondSignal, .exit(130)], state: .finished),
            ]),
        Scenario(
            name: "a replay that ends by itself closes the endpoint; a late signal still exits",
            afterSourceEnds: .stop,
            rows: [
                Row(event: .gatewayEnded, actions: [.closeControl], state: .finished),
                Row(event: .signal, actions: [secondSignal, .exit(130)], state: .finished),
            ]),
        Scenario(
            name: "a failure anywhere in the gateway closes the endpoint (the run then throws it)",
            afterSourceEnds: .keepServing(for: nil),
            rows: [
                Row(event: .gatewayFailed, actions: [.closeControl], state: .finished),
                Row(event: .gatewayEnded, actions: [], state: .finished),
            ]),
        Scenario(
            name: "simulate --serve --linger 5s: the page stays 5 s after the end, then closes",
            afterSourceEnds: .keepServing(for: .seconds(5)),
            rows: [
                Row(
                    event: .gatewayEnded,
                    actions: [.say("the source has ended; the status page shows its last state for 5s"), .linger(.seconds(5))],
                    state: .lingering),
                Row(event: .lingerElapsed, actions: [.closeControl], state: .finished),
            ]),
        Scenario(
            name: "simulate --serve: the page stays until Ctrl-C, which closes it without a second stop",
            afterSourceEnds: .keepServing(for: nil),
            rows: [
                Row(
                    event: .gatewayEnded,
                    actions: [.say("the source has ended; the status page shows its last state until Ctrl-C")],
                    state: .lingering),
                Row(event: .signal, actions: [.closeControl], state: .finished),
            ]),
        Scenario(
            name: "stopped by a signal, a serving daemon does not linger",
            afterSourceEnds: .keepServing(for: .seconds(5)),
            rows: [
                Row(event: .signal, actions: [stopping, .stopGateway], state: .stopping),
                Row(event: .gatewayEnded, actions: [.closeControl], state: .finished),
                Row(event: .lingerElapsed, actions: [], state: .finished),
            ]),
        Scenario(
            name: "a failed control endpoint stops the gateway (no daemon runs unobservable)",
            afterSourceEnds: .stop,
            rows: [
                Row(
                    event: .controlFailed, actions: [.say("the control endpoint failed; stopping"), .stopGateway],
                    state: .stopping),
                Row(event: .gatewayEnded, actions: [.closeControl], state: .finished),
            ]),
    ]

    @Test("each row's actions and state", arguments: scenarios)
    func table(_ scenario: Scenario) {
        var machine = Machine(afterSourceEnds: scenario.afterSourceEnds)
        #expect(machine.state == .running)
        for (index, row) in scenario.rows.enumerated() {
            let actions = machine.handle(row.event)
            #expect(actions == row.actions, "row \(index + 1): \(row.event)")
            #expect(machine.state == row.state, "row \(index + 1): \(row.event)")
        }
    }

    @Test("a signal exits at once only once the daemon is already stopping or finished, never on the first stop")
    func total() {
        let events: [Machine.Event] = [.signal, .gatewayEnded, .gatewayFailed, .lingerElapsed, .controlFailed]
        for first in events {
            for second in events {
                var machine = Machine(afterSourceEnds: .keepServing(for: .seconds(1)))
                _ = machine.handle(first)
                let actions = machine.handle(second)
                let exits = actions.contains { if case .exit = $0 { true } else { false } }
                let stoppingOrFinished = first == .signal || first == .controlFailed || first == .gatewayFailed
                #expect(exits == (second == .signal && stoppingOrFinished), "\(first), \(second)")
                #expect(!machine.handle(.gatewayEnded).contains(.exit(130)))
            }
        }
    }
}
