import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDevices
import BeaconRanging
import BeaconSite
import BeaconSiteReport
import BeaconWire

/// The gateway configuration file: the source, the state file, the sinks and the alerts.
public struct GatewayConfiguration: Sendable {
    /// The alert definitions, in file order.
    public var alerts: [AlertDefinition]
    /// The named beacons (`beacons:`): their names and tags in events, presence lines, the
    /// status page and Home Assistant, and what `match: {tag: …}` selects from.
    public var beacons: BeaconDirectory = .empty
    /// Enrolled phones and watches (`devices:`), ranged as `device:NAME` once their private
    /// addresses resolve; each is also a named beacon (its name and tags in ``beacons``).
    public var devices: [EnrolledDevice] = []
    /// The people (`people:`): what each carries, whose rooms decide theirs (`Person`).
    public var people: [Person] = []
    /// Whether devices, people and the names of what people carry are under pseudonyms
    /// (`pseudonyms:`, BeaconDevices' `Pseudonyms`): the written names are then only aliases.
    public var pseudonymous = false
    /// At most this many alerts are scheduled at once (what the cap refuses is an `error` event).
    public var maxPending: Int
    /// Where advertisements come from (`beacond run` needs one).
    public var source: SourceDefinition?
    /// The SQLite file keeping the engine's state and the sinks' outbox (`nil`: in memory, lost on exit).
    public var statePath: String?
    /// Where events are delivered, each through its own outbox.
    public var sinks: [SinkDefinition]
    /// At most this many events wait per sink; more are dropped, counted and logged.
    public var maxBacklog: Int

    /// A candidate alert set run beside the live one (`shadow: FILE`, an alerts file): its
    /// events go to the log, never to the sinks, and `GET /api/shadow` compares it with the
    /// live set (`Docs/Strategies.md`, "Trying a change").
    public var shadowPath: String?
    /// The latency promised for delivered alerts (`latency:`), checked per sink; `nil`: none.
    public var latency: LatencyObjective?

    /// How long histories, dead letters, presence lines and recordings are kept (`retention:`).
    public var retention: RetentionSettings = .defaults

    /// The HTTP control endpoint (`http:`): metrics, health, posted events; `nil` when off.
    public var control: ControlConfiguration?

    /// Ranging: cycle, filter, distance model, proximity bands, regions.
    public var ranging: RangingConfiguration
    /// When `alerts:` is `{url, checkEvery}`: where the alert definitions are fetched from
    /// (``alerts`` is then empty until the first good fetch).
    public var remoteAlerts: RemoteAlertsConfiguration?
    /// Vendors' beacon frames beyond the built-in ones (`layouts:`), tried in order after them.
    public var layouts: [BeaconLayout] = []
    /// The site this gateway (or hub) belongs to (`site:`): a gateway publishes each ranging
    /// cycle there; a hub subscribes.
    public var site: SiteSettings?
    /// The hub's gateways and fusion (`gateways:` and `hub:`), with `source: hub`.
    public var hub: HubSettings?
    /// The fusion's settings of `hub:` without `gateways:`: in the alerts file of a simulated
    /// site (`beacond simulate`), whose gateways are the scenario's.
    public var siteFusion: SiteFusionConfiguration?

    public init(
        alerts: [AlertDefinition] = [], maxPending: Int = AlertEngineConfiguration.defaultMaxPending,
        source: SourceDefinition? = nil, statePath: String? = nil, sinks: [SinkDefinition] = [],
        maxBacklog: Int = 10_000, ranging: RangingConfiguration = RangingConfiguration(),
        control: ControlConfiguration? = nil
    ) {
        self.control = control
        self.alerts = alerts
        self.maxPending = maxPending
        self.source = source
        self.statePath = statePath
        self.sinks = sinks
        self.maxBacklog = maxBacklog
        self.ranging = ranging
    }

    static let keys =
        [
            "source", "state", "sinks", "maxBacklog", "alerts", "maxPending", "ranging", "http", "layouts", "site", "gateways",
            "anchors", "hub", "beacons", "devices", "people", "shadow", "latency", "retention", "pseudonyms",
        ] + HubSettings.floorPlanKeys

    /// Reads and validates a configuration document; `sinks:` entries are read by the kinds
    /// `sinkKinds` has, and `devices:` entries with `irk: scenario` take their keys from
    /// `scenarioPhoneKeys` (a simulated scenario's phones, by name).
    public init(
        node: ConfigNode, sinkKinds: SinkRegistry = .builtIn, scenarioPhoneKeys: [String: [UInt8]] = [:]
    ) throws(ConfigurationError) {
        try node.checkKeys(allowed: Self.keys)
        beacons = try node["beacons"].map { n throws(ConfigurationError) in try BeaconDirectory(node: n) } ?? .empty
        if let list = node["devices"] {
            let enrolled = try EnrolledDevice.read(list, beacons: beacons, scenarioPhoneKeys: scenarioPhoneKeys)
            devices = enrolled.devices
            beacons = BeaconDirectory(beacons.beacons + enrolled.named)
        }
        let beaconsRead = beacons
        people = try node["people"].map { n throws(ConfigurationError) in try Person.read(n, beacons: beaconsRead) } ?? []
        if let pseudonymsNode = node["pseudonyms"] {
            try pseudonymsNode.checkKeys(allowed: ["key", "keyFile"], in: "pseudonyms")
            guard let key = try GatewayKey.read(from: pseudonymsNode) else {
                throw pseudonymsNode.error(
                    "pseudonyms needs the site's secret: keyFile: FILE (or key: HEX), the same on every gateway and hub of the site"
                )
            }
            (devices, beacons, people) = Pseudonyms(key: key.bytes).apply(devices: devices, beacons: beacons, people: people)
            pseudonymous = true
        }
        var alerts: [AlertDefinition] = []
        /// The first callback key of each alert that has one, to point at it.
        var callbackNodes: [(alertID: String, node: ConfigNode)] = []
        /// Each escalation and where it is written, to check that its sinks exist.
        var escalations: [(sinks: [String], node: ConfigNode)] = []
        if let remote = node["alerts"], remote.isMapping {
            remoteAlerts = try RemoteAlertsConfiguration(node: remote)
            remoteAlerts?.beacons = beacons
        } else if let list = node["alerts"] {
            for item in try list.sequence() {
                if let key = AlertPolicy.callbackKeys.first(where: { item[$0] != nil }) {
                    callbackNodes.append((try item["id"]?.string() ?? "?", item[key]!))
                }
                let definition = try AlertDefinition(node: item, beacons: beacons, people: people)
                if let escalation = definition.policy.remind?.escalation, let at = item["escalate"] {
                    escalations.append((escalation.to, at))
                }
                if alerts.contains(where: { $0.id == definition.id }) {
                    throw item.error("duplicate alert id '\(definition.id)'; ids must be unique")
                }
                alerts.append(definition)
            }
        }
        self.alerts = alerts
        maxPending = try node["maxPending"]?.integer(in: 1...100_000) ?? AlertEngineConfiguration.defaultMaxPending
        source = try node["source"].map { node throws(ConfigurationError) in try SourceDefinition(node: node) }
        statePath = try node["state"]?.filePath()
        if let remote = remoteAlerts, remote.stage, remote.cachePath == nil, statePath == nil, let alertsNode = node["alerts"] {
            // Without a cache, a restart would fetch the latest version and put it live unpromoted.
            throw (alertsNode["stage"] ?? alertsNode).error(
                "stage: true needs a cache of the set in force, or a restart would put an unpromoted version live: "
                    + "add state: FILE (the cache goes next to it) or cache: FILE under alerts:")
        }
        shadowPath = try node["shadow"]?.filePath()
        latency = try node["latency"].map { n throws(ConfigurationError) in try LatencyObjective.read(n) }
        var sinks: [SinkDefinition] = []
        if let list = node["sinks"] {
            for item in try list.sequence() {
                let sink = try SinkDefinition(node: item, registry: sinkKinds)
                if sinks.contains(where: { $0.name == sink.name }) {
                    throw item.error("two sinks are named '\(sink.name)'; give one a different name:")
                }
                sinks.append(sink)
            }
        }
        self.sinks = sinks
        // An escalation goes to sinks of this file (an alerts-only file, without sinks, is checked
        // by the daemon that loads it).
        if !sinks.isEmpty {
            for escalation in escalations {
                for name in escalation.sinks where !sinks.contains(where: { $0.name == name }) {
                    throw escalation.node.error(
                        "escalate.to names sink '\(name)', which is not one of the sinks ("
                            + sinks.map(\.name).joined(separator: ", ") + "); give the sink a name: and use it here")
                }
            }
        }
        // A callback is sent by a webhook sink (to the callback URL) or handed to an exec sink
        // (BEACOND_DESTINATION); with neither it would go nowhere. An alerts-only file (no
        // source) is checked without sinks.
        if node["source"] != nil, let first = callbackNodes.first,
            !sinks.contains(where: { $0.settings.sendsCallbacks })
        {
            throw first.node.error(
                "alert '\(first.alertID)' has callbacks, but no sink sends them: add a webhook sink "
                    + "(it posts each event to its callback URL) or an exec sink (it gets the URL as BEACOND_DESTINATION)")
        }
        maxBacklog = try node["maxBacklog"]?.integer(in: 1...10_000_000) ?? 10_000
        retention = try node["retention"].map { n throws(ConfigurationError) in try RetentionSettings(node: n) } ?? .defaults
        control = try node["http"].map { node throws(ConfigurationError) in try ControlConfiguration.read(node) } ?? nil
        if let list = node["layouts"] {
            for item in try list.sequence() { layouts.append(try BeaconLayout(node: item)) }
        }
        ranging =
            try node["ranging"].map { n throws(ConfigurationError) in try RangingConfiguration(node: n) }
            ?? RangingConfiguration()
        // A region may select named beacons by tag too.
        if let regionNodes = try node["ranging"]?["regions"]?.sequence() {
            for (index, item) in zip(ranging.regions.indices, regionNodes) {
                if let match = item["match"] {
                    ranging.regions[index].match = try ranging.regions[index].match.resolved(in: beacons, at: match)
                }
            }
        }
        site = try node["site"].map { n throws(ConfigurationError) in try SiteSettings(node: n) }
        if site?.advertise == true, let source, let field = node["site"]?["advertise"] {
            try Self.checkAdvertising(source: source, at: field)
        }
        if let gateways = node["gateways"] {
            hub = try HubSettings.read(
                gateways: gateways, hub: node["hub"], anchors: node["anchors"], walls: node["walls"], blocks: node["blocks"],
                rooms: node["rooms"], site: site?.topics.site)
        } else if let stray = HubSettings.floorPlanKeys.lazy.compactMap({ node[$0] }).first {
            throw stray.error(
                "walls:, blocks: and rooms: draw a hub's floor plan: they need the site's gateways: beside them "
                    + "(a simulated site takes them from its scenario)")
        } else if let hubNode = node["hub"] {
            guard node["source"] == nil else {
                throw hubNode.error("a hub needs its gateways: add gateways: [{id: …, room: …, position: [x, y, z]}, …]")
            }
            // An alerts file for a simulated site: the scenario has the gateways.
            siteFusion = try HubSettings.readOptions(hubNode).fusion
        }
        if source == .hub {
            guard hub != nil else {
                throw (node["source"] ?? node).error(
                    "source: hub needs the site's gateways: add gateways: [{id: …, room: …, position: [x, y, z]}, …]")
            }
            guard let site else {
                throw (node["source"] ?? node).error("source: hub needs site: {name: …, broker: {host: …, port: …}}")
            }
            if let hubSettings = hub, hubSettings.partition.of > site.topics.bucketCount {
                throw (node["hub"] ?? node).error(
                    "hub.partition.of (\(hubSettings.partition.of)) exceeds site.buckets (\(site.topics.bucketCount)): a hub would have no bucket"
                )
            }
            if node["ranging"] != nil {
                throw node["ranging"]!.error("a hub does no ranging of its own: its cycle and proximity bands are under hub:")
            }
        } else if hub != nil, let source = node["source"] {
            throw source.error("gateways: and hub: describe a site hub: use source: hub (or `beacond hub`)")
        }
        // A hub's file has gateways: (`beacond hub` adds source: hub after reading it).
        self.sinks = Self.withContext(
            sinks, beacons: beacons, people: people, rooms: hub?.layout.rooms ?? [], alerts: alerts, hub: hub != nil,
            statePath: statePath)
    }

    /// `site.advertise: true` needs a radio to advertise from: refused, with what to do instead,
    /// for every other source.
    private static func checkAdvertising(source: SourceDefinition, at field: ConfigNode) throws(ConfigurationError) {
        switch source {
        case .hci:
            return
        case .simulate:
            throw field.error(
                "site.advertise: true needs a radio (source: {hci: …}); in a simulation the scenario says which "
                    + "gateways advertise: set advertise: true on the gateway's entry under the scenario's gateways:")
        case .replay:
            throw field.error(
                "site.advertise: true needs a radio (source: {hci: …}): a replay has nothing to advertise from")
        case .hub:
            throw field.error(
                "site.advertise: true is a gateway's setting (a hub does not scan): set it in the site: section of "
                    + "each gateway that scans with source: {hci: …}")
        }
    }

    /// `sinks` with what an MQTT sink's Home Assistant discovery needs of the rest of the file:
    /// the named beacons, the alert ids, whether it is a hub's, and the ledger beside the state file.
    static func withContext(
        _ sinks: [SinkDefinition], beacons: BeaconDirectory, people: [Person] = [], rooms: [String] = [],
        alerts: [AlertDefinition], hub: Bool, statePath: String?
    ) -> [SinkDefinition] {
        sinks.map { definition in
            guard var mqtt = definition.settings as? MQTTSinkSettings else { return definition }
            mqtt.beacons = beacons
            mqtt.people = people
            mqtt.rooms = rooms
            mqtt.alertIDs = alerts.map(\.id)
            mqtt.onHub = hub
            if mqtt.homeAssistantPrefix != nil {
                mqtt.homeAssistantLedgerPath = statePath.map { "\($0).homeassistant.\(mqtt.gateway)" }
            }
            var definition = definition
            definition.settings = mqtt
            return definition
        }
    }

    /// Loads a configuration file.
    /// - Parameters:
    ///   - path: the file.
    ///   - sinkKinds: the kinds `sinks:` entries may have.
    ///   - scenarioPhoneKeys: a simulated scenario's phones' keys by name, for `devices:` entries
    ///     with `irk: scenario` (only `beacond simulate` has them).
    public static func load(
        path: String, sinkKinds: SinkRegistry = .builtIn, scenarioPhoneKeys: [String: [UInt8]] = [:]
    ) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(node: ConfigNode.load(path: path), sinkKinds: sinkKinds, scenarioPhoneKeys: scenarioPhoneKeys)
    }
}

extension GatewayConfiguration {
    /// The sinks named by an alert's `escalate.to`: they get only the events escalated to them.
    public var escalationSinks: Set<String> {
        Set(alerts.flatMap { $0.policy.remind?.escalation?.to ?? [] })
    }
}
