import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconTestSupport
import Foundation
import Testing

/// `remind`, `escalate`, `scheduleCondition` and `deliverWhen` in a configuration file (issue 29):
/// read into the policy, and every mistake refused at its line with what to write instead.
@Suite("Configuration: reminders, escalation and conditions")
struct AlertAfterDeliveryConfigurationTests {
    static func read(_ yaml: String) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "gw.yaml"))
    }

    @Test("the keys are read into the policy")
    func accepted() throws {
        let config = try Self.read(
            """
            source: {simulate: lobby.yaml}
            sinks:
              - {type: jsonl, path: "-"}
              - {type: jsonl, name: pager, path: /tmp/pager.jsonl}
            alerts:
              - id: exit
                strategy: time
                remind: {every: 2m, until: acknowledged, max: 4}
                escalate: {after: 3, to: [pager]}
                scheduleCondition: {inRange: true, room: lobby, proximity: near, occupancy: {room: cafe, atMost: 20}}
                deliverWhen: {room: cafe, maxDistance: 3, event: {name: open, within: 10m}, maxWait: 5m, then: deliver}

            """)
        let policy = try #require(config.alerts.first?.policy)
        #expect(
            policy.remind
                == (try ReminderPolicy(every: .seconds(120), max: 4, escalation: try EscalationPolicy(after: 3, to: ["pager"]))))
        #expect(
            policy.scheduleCondition
                == AlertCondition(
                    inRange: true, room: "lobby", proximity: .near, occupancy: .init(room: "cafe", atLeast: nil, atMost: 20)))
        #expect(
            policy.deliverWhen?.condition
                == AlertCondition(room: "cafe", maxDistance: 3, event: .init(name: "open", within: .seconds(600))))
        #expect(policy.deliverWhen?.maxWait == .seconds(300) && policy.deliverWhen?.then == .deliver)
        #expect(config.escalationSinks == ["pager"])
    }

    @Test(
        "mistakes are refused at their line with what to write",
        arguments: [
            ("    remind: {max: 3}\n", "gw.yaml:4", "'remind' needs 'every'"),
            ("    remind: {every: 2m, until: viewed}\n", "gw.yaml:4", "'remind.until' can only be 'acknowledged'"),
            ("    remind: {every: 2m, max: 0}\n", "gw.yaml:4", "1…1000"),
            ("    escalate: {after: 2, to: [pager]}\n", "gw.yaml:4", "'escalate' needs 'remind'"),
            ("    remind: {every: 2m, max: 2}\n    escalate: {after: 3, to: [pager]}\n", "gw.yaml:4", "would never happen"),
            (
                "    remind: {every: 2m}\n    escalate: {after: 1, to: [nobody]}\n", "gw.yaml:5",
                "sink 'nobody', which is not one of the sinks"
            ),
            ("    remind: {every: 2m}\n    repeat: daily\n", "gw.yaml:2", "not both"),
            ("    scheduleCondition: {}\n", "gw.yaml:4", "an empty condition always holds"),
            ("    scheduleCondition: {proximity: close}\n", "gw.yaml:4", "proximity 'close' is not a band"),
            ("    scheduleCondition: {rooom: cafe}\n", "gw.yaml:4", "did you mean 'room'?"),
            ("    scheduleCondition: {occupancy: {room: cafe}}\n", "gw.yaml:4", "occupancy needs atLeast or atMost"),
            ("    scheduleCondition: {occupancy: {room: cafe, atLeast: 3, atMost: 1}}\n", "gw.yaml:4", "could never hold"),
            ("    deliverWhen: {room: cafe}\n", "gw.yaml:4", "deliverWhen needs maxWait"),
            ("    deliverWhen: {room: cafe, maxWait: 5m, then: keep}\n", "gw.yaml:4", "then 'keep' is not deliver or drop"),
            ("    deliverWhen: {time: {from: \"25:00\"}, maxWait: 5m}\n", "gw.yaml:4", "HH:MM"),
        ])
    func refused(_ lines: String, _ place: String, _ what: String) {
        let yaml = "alerts:\n  - id: a\n    strategy: time\n" + lines + "sinks:\n  - {type: jsonl, path: \"-\"}\n"
        do throws(ConfigurationError) {
            _ = try Self.read(yaml)
            Issue.record("accepted: \(lines)")
        } catch {
            #expect(error.description.hasPrefix(place), "\(error)")
            #expect(error.description.contains(what), "\(error)")
        }
    }
}
