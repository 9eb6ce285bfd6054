import BeaconSiteLink
import Testing

/// The hubs' election as tables: each scenario is a list of rows (event → actions, role) from a
/// new machine for hub `b`. Old code: there was no election — a second hub for a share
/// delivered every alert again.
@Suite("HubElection: which hub of a share delivers, stepped as tables")
struct HubElectionTests {
    typealias Election = HubElection

    struct Row: Sendable {
        let event: Election.Event
        let actions: [Election.Action]
        let role: Election.Role
    }

    struct Scenario: CustomTestStringConvertible, Sendable {
        let name: String
        let rows: [Row]
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(
            name: "alone: announces standby, takes over only once settled",
            rows: [
                Row(event: .connected, actions: [.announce(.standby)], role: .standby),
                Row(event: .status(hub: "b", .standby), actions: [], role: .standby),
                Row(event: .settled, actions: [.becomeActive, .announce(.active)], role: .active),
            ]),
        Scenario(
            name: "an active peer is never preempted, even by a smaller id coming back",
            rows: [
                Row(event: .connected, actions: [.announce(.standby)], role: .standby),
                Row(event: .settled, actions: [.becomeActive, .announce(.active)], role: .active),
                Row(event: .status(hub: "a", .standby), actions: [], role: .active),
            ]),
        Scenario(
            name: "a peer active before it settles: it stays standby",
            rows: [
                Row(event: .connected, actions: [.announce(.standby)], role: .standby),
                Row(event: .status(hub: "c", .active), actions: [], role: .standby),
                Row(event: .settled, actions: [], role: .standby),
            ]),
        Scenario(
            name: "the active peer's last will: the standby takes over",
            rows: [
                Row(event: .connected, actions: [.announce(.standby)], role: .standby),
                Row(event: .status(hub: "c", .active), actions: [], role: .standby),
                Row(event: .settled, actions: [], role: .standby),
                Row(event: .status(hub: "c", .offline), actions: [.becomeActive, .announce(.active)], role: .active),
            ]),
        Scenario(
            name: "two standbys: only the smaller id takes over",
            rows: [
                Row(event: .connected, actions: [.announce(.standby)], role: .standby),
                Row(event: .status(hub: "a", .standby), actions: [], role: .standby),
                Row(event: .settled, actions: [], role: .standby),
                Row(event: .status(hub: "a", .active), actions: [], role: .standby),
                Row(event: .status(hub: "a", .offline), actions: [.becomeActive, .announce(.active)], role: .active),
            ]),
        Scenario(
            name: "both active (a race): the larger id steps down, the smaller stays",
            rows: [
                Row(event: .connected, actions: [.announce(.standby)], role: .standby),
                Row(event: .settled, actions: [.becomeActive, .announce(.active)], role: .active),
                Row(event: .status(hub: "c", .active), actions: [], role: .active),
                Row(event: .status(hub: "a", .active), actions: [.becomeStandby, .announce(.standby)], role: .standby),
            ]),
        Scenario(
            name: "losing the broker steps down at once; back, it waits to settle again",
            rows: [
                Row(event: .connected, actions: [.announce(.standby)], role: .standby),
                Row(event: .settled, actions: [.becomeActive, .announce(.active)], role: .active),
                Row(event: .disconnected, actions: [.becomeStandby], role: .standby),
                Row(event: .settled, actions: [], role: .standby),
                Row(event: .connected, actions: [.announce(.standby)], role: .standby),
                Row(event: .status(hub: "a", .active), actions: [], role: .standby),
                Row(event: .settled, actions: [], role: .standby),
            ]),
        Scenario(
            name: "its own echo is not a peer; 'online' counts as standby",
            rows: [
                Row(event: .connected, actions: [.announce(.standby)], role: .standby),
                Row(event: .status(hub: "b", .active), actions: [], role: .standby),
                Row(event: .status(hub: "a", Election.Status(payload: "online")!), actions: [], role: .standby),
                Row(event: .settled, actions: [], role: .standby),
            ]),
    ]

    @Test("each row's actions and role (this hub is 'b')", arguments: scenarios)
    func table(_ scenario: Scenario) {
        var election = Election(me: "b")
        for (index, row) in scenario.rows.enumerated() {
            #expect(election.handle(row.event) == row.actions, "row \(index + 1): \(row.event)")
            #expect(election.role == row.role, "row \(index + 1): \(row.event)")
        }
    }

    @Test("a status payload that is not one is ignored")
    func unknownStatus() {
        #expect(Election.Status(payload: "leader") == nil)
        #expect(Election.Status(payload: "") == nil)
        #expect(Election.Status(payload: "offline") == .offline)
    }
}
