import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore

extension AlertCondition {
    /// The keys of a condition.
    static let keys = ["inRange", "region", "room", "proximity", "maxDistance", "occupancy", "event", "time"]

    /// Reads a condition mapping (`scheduleCondition:`, or `deliverWhen:` without its `maxWait` and
    /// `then`), every part checked at its line:
    ///
    /// ```yaml
    /// scheduleCondition:
    ///   inRange: true                  # the beacon is (true) or is not (false) in range
    ///   region: lobby                  # it is in this region
    ///   room: café                     # its room (a site hub's) is this one
    ///   proximity: near                # at most this far: immediate, near, far
    ///   maxDistance: 3                 # metres
    ///   occupancy: {room: café, atLeast: 1, atMost: 20}
    ///   event: {name: doors-open, within: 10m}   # POST /events/doors-open, recently
    ///   time: {days: [mon, fri], from: "08:00", to: "18:00", timeZone: Europe/Paris}
    /// ```
    init(node: ConfigNode, extraKeys: [String] = []) throws(ConfigurationError) {
        try node.checkKeys(allowed: Self.keys + extraKeys)
        self.init()
        inRange = try node["inRange"]?.bool()
        region = try node["region"]?.string()
        room = try node["room"]?.string()
        if let band = node["proximity"] {
            let text = try band.string()
            guard let parsed = Proximity(name: text), parsed != .unknown else {
                throw band.error(
                    "proximity '\(text)' is not a band: use immediate, near or far (the condition holds at that band or closer)")
            }
            proximity = parsed
        }
        maxDistance = try node["maxDistance"]?.number(in: 0...1_000, "a distance in metres (0–1000)")
        if let occupancyNode = node["occupancy"] {
            try occupancyNode.checkKeys(allowed: ["room", "atLeast", "atMost"])
            guard let roomNode = occupancyNode["room"] else {
                throw occupancyNode.error("occupancy needs its room: occupancy: {room: café, atLeast: 1}")
            }
            let atLeast = try occupancyNode["atLeast"]?.integer(in: 0...1_000_000)
            let atMost = try occupancyNode["atMost"]?.integer(in: 0...1_000_000)
            if atLeast == nil && atMost == nil {
                throw occupancyNode.error("occupancy needs atLeast or atMost (or both): occupancy: {room: café, atMost: 20}")
            }
            if let atLeast, let atMost, atLeast > atMost {
                throw occupancyNode.error(
                    "occupancy's atLeast (\(atLeast)) is more than its atMost (\(atMost)): it could never hold")
            }
            occupancy = Occupancy(room: try roomNode.string(), atLeast: atLeast, atMost: atMost)
        }
        if let eventNode = node["event"] {
            try eventNode.checkKeys(allowed: ["name", "within"])
            guard let name = eventNode["name"], let within = eventNode["within"] else {
                throw eventNode.error("event needs its name and how recently: event: {name: doors-open, within: 10m}")
            }
            event = RecentEvent(name: try name.string(), within: try within.duration())
        }
        if let timeNode = node["time"] {
            try timeNode.checkKeys(allowed: ["days", "from", "to", "timeZone"])
            let days = try timeNode["days"].map { n throws(ConfigurationError) -> [String] in
                if let single = n.scalarText { return [single] }
                var out: [String] = []
                for day in try n.sequence() { out.append(try day.string()) }
                return out
            }
            let from = try timeNode["from"]?.string() ?? "00:00"
            let to = try timeNode["to"]?.string() ?? "24:00"
            let zone = try timeNode["timeZone"]?.string() ?? "UTC"
            do throws(AlertPolicyError) {
                time = try DeliveryWindow(days: days, from: from, to: to, timeZone: zone, outsideWindow: "defer")
            } catch {
                throw timeNode.error(error.description)
            }
        }
        if self == AlertCondition() {
            throw node.error("an empty condition always holds: give at least one of \(Self.keys.joined(separator: ", "))")
        }
    }
}

extension DeliveryCondition {
    /// Reads `deliverWhen: {room: café, maxWait: 5m, then: drop}`: a condition plus how long a due
    /// alert waits for it (`maxWait`, required) and what then (`deliver` or `drop`, default drop).
    init(node: ConfigNode) throws(ConfigurationError) {
        let condition = try AlertCondition(node: node, extraKeys: ["maxWait", "then"])
        guard let waitNode = node["maxWait"] else {
            throw node.error("deliverWhen needs maxWait, the longest a due alert waits for its condition: maxWait: 5m")
        }
        let wait = try waitNode.duration()
        var expiry = Expiry.drop
        if let thenNode = node["then"] {
            let text = try thenNode.string()
            guard let parsed = Expiry(rawValue: text) else {
                throw thenNode.error("then '\(text)' is not deliver or drop (what becomes of the alert when maxWait ends)")
            }
            expiry = parsed
        }
        do throws(AlertPolicyError) {
            try self.init(condition: condition, maxWait: wait, then: expiry)
        } catch {
            throw waitNode.error(error.description)
        }
    }
}
