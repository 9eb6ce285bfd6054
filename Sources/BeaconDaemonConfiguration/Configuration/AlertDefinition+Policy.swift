import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore

extension AlertPolicy {
    /// The keys of an alert definition that configure its delivery policy.
    static let configurationKeys = [
        "delay", "notBefore", "firing", "repeat", "cooldown", "window", "cancelOn", "maxLateness", "remind", "escalate",
        "scheduleCondition", "deliverWhen", "firstStart", "priority",
        "callback", "callbackCreated", "callbackDelivered", "callbackCancelled", "callbackError",
    ]

    /// The callback keys.
    package static let callbackKeys = ["callback", "callbackCreated", "callbackDelivered", "callbackCancelled", "callbackError"]

    /// True for `http://HOST…` and `https://HOST…` (what a webhook sink can post to).
    static func isHTTPURL(_ text: String) -> Bool {
        for scheme in ["http://", "https://"] where text.lowercased().hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return !host.isEmpty && !host.hasPrefix(":") && !text.contains(" ")
        }
        return false
    }

    /// Reads the policy keys of an alert definition (all optional).
    init(alertNode node: ConfigNode) throws(ConfigurationError) {
        func text(_ key: String) throws(ConfigurationError) -> String? { try node[key]?.string() }
        var window: DeliveryWindow?
        if let windowNode = node["window"] {
            try windowNode.checkKeys(allowed: ["days", "from", "to", "timeZone", "outsideWindow"])
            let days = try windowNode["days"].map { n throws(ConfigurationError) -> [String] in
                if let single = n.scalarText { return [single] }
                var out: [String] = []
                for day in try n.sequence() { out.append(try day.string()) }
                return out
            }
            let from = try windowNode["from"]?.string() ?? "00:00"
            let to = try windowNode["to"]?.string() ?? "24:00"
            let zone = try windowNode["timeZone"]?.string() ?? "UTC"
            let outside = try windowNode["outsideWindow"]?.string() ?? "defer"
            do throws(AlertPolicyError) {
                window = try DeliveryWindow(days: days, from: from, to: to, timeZone: zone, outsideWindow: outside)
            } catch {
                throw windowNode.error(error.description)
            }
        }
        var cancelOn: [CancelCondition] = []
        if let list = node["cancelOn"] {
            for item in try list.sequence() {
                let pairs = try item.mapping()
                guard pairs.count == 1, let (key, value) = pairs.first else {
                    throw item.error(
                        "each cancelOn entry is one of {regionExit: REGION}, {beaconExit: true}, {alertDelivered: ALERT-ID}, {event: NAME}"
                    )
                }
                switch key {
                case "regionExit": cancelOn.append(.regionExit(try value.string()))
                case "beaconExit": if try value.bool() { cancelOn.append(.beaconExit) }
                case "alertDelivered": cancelOn.append(.alertDelivered(try value.string()))
                case "event": cancelOn.append(.event(try value.string()))
                default:
                    throw item.error("unknown cancelOn event '\(key)'; valid: regionExit, beaconExit, alertDelivered, event")
                }
            }
        }
        let delay = try text("delay"), notBefore = try text("notBefore"), firing = try text("firing")
        let repeatText = try text("repeat"), cooldown = try text("cooldown"), maxLateness = try text("maxLateness")
        // Checked here, so that a wrong value is reported at its own line and column.
        let firstStart = try node["firstStart"].map { n throws(ConfigurationError) -> String in
            let value = try n.string()
            do throws(AlertPolicyError) { _ = try FirstStart(parsing: value) } catch { throw n.error(error.description) }
            return value
        }
        let priority = try node["priority"].map { n throws(ConfigurationError) -> String in
            let value = try n.string()
            let level: AlertPriority
            do throws(AlertPolicyError) { level = try AlertPriority(parsing: value) } catch { throw n.error(error.description) }
            if level == .passive, let remind = node["remind"] { throw remind.error(AlertPolicyError.passiveReminds.description) }
            return value
        }
        func url(_ key: String) throws(ConfigurationError) -> String? {
            guard let value = node[key] else { return nil }
            let text = try value.string()
            guard Self.isHTTPURL(text) else {
                throw value.error(
                    "\(key) '\(text)' is not an http:// or https:// URL with a host (e.g. https://example.org/alerts)")
            }
            return text
        }
        let remind = try Self.reminders(of: node)
        let scheduleCondition = try node["scheduleCondition"].map { n throws(ConfigurationError) in
            try AlertCondition(node: n)
        }
        let deliverWhen = try node["deliverWhen"].map { n throws(ConfigurationError) in try DeliveryCondition(node: n) }
        let callback = try url("callback"), created = try url("callbackCreated")
        let delivered = try url("callbackDelivered"), cancelled = try url("callbackCancelled")
        let errorCallback = try url("callbackError")
        do throws(AlertPolicyError) {
            try self.init(
                delay: delay, notBefore: notBefore, firing: firing, repeat: repeatText, cooldown: cooldown,
                window: window, cancelOn: cancelOn, callback: callback, callbackCreated: created,
                callbackDelivered: delivered, callbackCancelled: cancelled, callbackError: errorCallback,
                maxLateness: maxLateness, remind: remind, scheduleCondition: scheduleCondition,
                deliverWhen: deliverWhen, firstStart: firstStart, priority: priority)
        } catch {
            throw node.error(error.description)
        }
    }

    /// Reads `remind: {every: 2m, until: acknowledged, max: 5}` and `escalate: {after: 3, to:
    /// [SINK…]}` (which needs `remind`).
    static func reminders(of node: ConfigNode) throws(ConfigurationError) -> ReminderPolicy? {
        guard let remindNode = node["remind"] else {
            if let escalate = node["escalate"] {
                throw escalate.error(
                    "'escalate' needs 'remind' (escalation happens to unanswered reminders): add remind: {every: 2m}")
            }
            return nil
        }
        try remindNode.checkKeys(allowed: ["every", "until", "max"])
        guard let everyNode = remindNode["every"] else {
            throw remindNode.error("'remind' needs 'every', the time between deliveries (e.g. remind: {every: 2m, max: 5})")
        }
        if let until = remindNode["until"], try until.string() != "acknowledged" {
            throw until.error("'remind.until' can only be 'acknowledged' (an acknowledgement or a dismissal ends the reminders)")
        }
        let every = try everyNode.duration()
        let max = try remindNode["max"]?.integer(in: 1...1_000) ?? 5
        var escalation: EscalationPolicy?
        if let escalate = node["escalate"] {
            try escalate.checkKeys(allowed: ["after", "to"])
            guard let after = escalate["after"], let to = escalate["to"] else {
                throw escalate.error(
                    "'escalate' needs 'after' (unanswered deliveries) and 'to' (sink names): escalate: {after: 3, to: [pager]}")
            }
            var sinks: [String] = []
            if let single = to.scalarText {
                sinks = [single]
            } else {
                for item in try to.sequence() { sinks.append(try item.string()) }
            }
            let count = try after.integer(in: 1...1_000)
            do throws(AlertPolicyError) {
                escalation = try EscalationPolicy(after: count, to: sinks)
            } catch {
                throw escalate.error(error.description)
            }
        }
        do throws(AlertPolicyError) {
            return try ReminderPolicy(every: every, max: max, escalation: escalation)
        } catch {
            throw remindNode.error(error.description)
        }
    }
}
