import BeaconAlertEngine
import BeaconConfiguration
import BeaconDaemonConfiguration
import BeaconForeignNodes
import BeaconPipeline
import BeaconRanging
import BeaconSimulator
import BeaconSite
import BeaconSiteReport
import BeaconStore
import BeaconStrategies
import BeaconStrategyKit
import Foundation

/// The kinds of configuration file `beacond check-config` tells apart, by their keys.
public enum ConfigurationFileKind: String, Sendable, CaseIterable {
    /// `source:` (not `hub`): one gateway's daemon, for `beacond run`.
    case gateway = "a gateway's configuration"
    /// `site:` and `gateways:` (with `source: hub` or no `source:`): a site hub, for
    /// `beacond hub` (and `beacond run` with `source: hub`); its rooms count as regions.
    case hub = "a site hub's configuration"
    /// No `source:` and no `gateways:`: the alerts and ranging `beacond replay --config` and
    /// `beacond simulate --config` take.
    case alertsOnly = "an alerts-only file"
    /// An alerts-only file with `hub:` (fusion settings, no gateways): a simulated site's alerts,
    /// whose gateways and rooms are the scenario's.
    case siteAlerts = "a simulated site's alerts file"
    /// `gateways:` each with a `capture:`, and no `site:`: a site's recordings, for
    /// `beacond replay --site` and `beacond evaluate-site`.
    case siteReplay = "a site's recordings"
}

/// What `beacond check-config` found in a file: its kind and a one-line summary of what was checked.
public struct ConfigurationCheck: Sendable {
    /// What the file is.
    public var kind: ConfigurationFileKind
    /// What was checked, starting with the kind (`a site hub's configuration (for beacond hub): …`).
    public var summary: String

    /// Validates a configuration file the way the command that takes it would use it, without
    /// opening the radio, the broker or the sinks: the keys and values (line-numbered errors), a
    /// source that exists (a readable scenario or capture, at its line), a state file that
    /// would open (its directory takes files — a probe is made and removed — and an existing
    /// one is a non-empty regular file that opens for writing), every alert's strategy and
    /// policy and, on a hub, the `hub:` options and the rooms alerts name. A site's recordings
    /// (`gateways:` with `capture:`, for `replay --site`) are checked as such.
    /// - Parameters:
    ///   - path: the configuration file.
    ///   - registry: where the alerts' strategies come from.
    ///   - checkingStateFile: whether to check the state file (not from inside the daemon that has
    ///     it open — a reload: `state:` cannot change live anyway).
    /// - Throws: `ConfigurationError` (at `file:line`) or `GatewayError` saying what is wrong.
    public static func check(
        path: String, registry: StrategyRegistry = .builtIn(), checkingStateFile: Bool = true
    ) throws -> ConfigurationCheck {
        let node = try ConfigNode.load(path: path)
        if node["site"] == nil, let first = (try? node["gateways"]?.sequence())?.first, first["capture"] != nil {
            return try checkSiteReplay(path: path, node: node)
        }
        let standIns = node["source"] == nil && node["site"] == nil ? standInScenarioKeys(node) : [:]
        let configuration = try GatewayConfiguration(node: node, scenarioPhoneKeys: standIns)
        if checkingStateFile { try checkState(configuration, node: node) }
        if configuration.hub != nil, configuration.source == nil || configuration.source == .hub {
            return try checkHub(configuration, node: node, registry: registry)
        }
        guard let source = configuration.source else {
            var check = try checkAlertsOnly(configuration, node: node, registry: registry)
            if !standIns.isEmpty {
                check.summary +=
                    "; devices with irk: scenario (\(standIns.keys.sorted().joined(separator: ", "))) take their "
                    + "keys from the scenario's phones, which beacond simulate checks"
            }
            return check
        }
        try checkSourceFile(source, node: node)
        switch source {
        case .simulate(let scenario, _, let gateway, _, _, _):
            _ = try loadSimulatedGateway(path: scenario, gateway: gateway)
        case .replay(let capture, _, _):
            do { _ = try CaptureReplaySource(path: capture) } catch { throw GatewayError.source("\(capture): \(error)") }
        case .hci, .hub:
            break
        }
        try buildPipeline(configuration, node: node, registry: registry)
        let site = configuration.site.map { site in
            ", site \(site.topics.site) (gateway '\(site.gateway)'"
                + (site.publishAs.map { ", publishing as ESPresense node '\($0.name)'" } ?? "")
                + ", broker \(site.host):\(site.port))"
        }
        let kind = ConfigurationFileKind.gateway
        return ConfigurationCheck(
            kind: kind,
            summary: "\(kind.rawValue) (for beacond run): source \(source)\(site ?? ""), " + tail(of: configuration))
    }

    /// For an alerts-only file (for `beacond simulate --config`): a stand-in key for each
    /// `devices:` entry with `irk: scenario`, whose key only the scenario has, so that the rest of
    /// the file is checked.
    static func standInScenarioKeys(_ node: ConfigNode) -> [String: [UInt8]] {
        var keys: [String: [UInt8]] = [:]
        for device in (try? node["devices"]?.sequence()) ?? [] where device["irk"]?.scalarText == "scenario" {
            if let id = try? device["id"]?.string() { keys[id] = Array(repeating: 0x5A, count: 16) }
        }
        return keys
    }

    /// A scenario or capture that can be read, or an error at the `source:` line saying why.
    static func checkSourceFile(_ source: SourceDefinition, node: ConfigNode) throws {
        let (what, path): (String, String)
        switch source {
        case .simulate(let scenario, _, _, _, _, _): (what, path) = ("scenario", scenario)
        case .replay(let capture, _, _): (what, path) = ("capture", capture)
        case .hci, .hub: return
        }
        guard let reason = UnreadableFile.reason(path) else { return }
        let sourceNode = node["source"] ?? node
        let at = sourceNode["simulate"] ?? sourceNode["replay"] ?? sourceNode
        let written =
            at.scalarText.map {
                $0.hasPrefix("simulate:") || $0.hasPrefix("replay:") ? String($0.drop { $0 != ":" }.dropFirst()) : $0
            } ?? path
        throw at.error(
            "cannot read the \(what) \(path): it \(reason)"
                + (written.hasPrefix("/") ? "" : " (a relative path is read from the configuration file's directory)"))
    }

    /// `state:`: a file that ``SQLiteAlertStateStore`` would open — its directory takes new
    /// files, and an existing one is a non-empty regular file that opens for writing.
    static func checkState(_ configuration: GatewayConfiguration, node: ConfigNode) throws {
        guard let path = configuration.statePath else { return }
        do {
            try SQLiteAlertStateStore.checkStateFile(at: path)
        } catch {
            throw (node["state"] ?? node).error("\(error)")
        }
    }

    /// A site's recordings (`beacond replay --site`, `evaluate-site`): the gateways, the hub's
    /// options, and each capture readable and of a format beacond reads.
    static func checkSiteReplay(path: String, node: ConfigNode) throws -> ConfigurationCheck {
        let document = try SiteReplayDocument.load(path: path)
        let entries = try node.required("gateways").sequence()
        for (index, (capture, entry)) in zip(document.captures, entries).enumerated() {
            let captureNode = entry["capture"] ?? entry
            if let reason = UnreadableFile.reason(capture) {
                throw captureNode.error("cannot read the capture \(capture): it \(reason)")
            }
            if document.hub.foreignNodes[document.hub.layout.gateways[index].id] != nil {
                // A foreign node's capture is its MQTT messages (beacond record-mqtt's JSON lines).
                let text = (try? String(contentsOfFile: capture, encoding: .utf8)) ?? ""
                let recording = ForeignRecording(text: text, file: capture)
                if recording.messages.isEmpty {
                    throw captureNode.error(
                        "\(capture) holds no recorded message (beacond record-mqtt's JSON lines)"
                            + (recording.errors.first.map { ": \($0)" } ?? ""))
                }
                continue
            }
            do { _ = try CaptureReplaySource(path: capture) } catch { throw captureNode.error("\(capture): \(error)") }
        }
        let kind = ConfigurationFileKind.siteReplay
        return ConfigurationCheck(
            kind: kind,
            summary: "\(kind.rawValue) (for beacond replay --site and evaluate-site): \(document.captures.count) gateways "
                + "in \(document.hub.layout.rooms.count) room\(document.hub.layout.rooms.count == 1 ? "" : "s") "
                + "(\(document.hub.layout.rooms.joined(separator: ", "))), "
                + "every capture readable; hub: options")
    }

    /// A hub: `site:` and `gateways:`, its `hub:` options (read with the file), and its alerts
    /// with the rooms as regions.
    static func checkHub(
        _ configuration: GatewayConfiguration, node: ConfigNode, registry: StrategyRegistry
    ) throws -> ConfigurationCheck {
        guard let site = configuration.site, let hub = configuration.hub else {
            throw (node["gateways"] ?? node).error(
                "these make this file a site hub's configuration, which needs site: {name: …, broker: {host: …, port: …}} "
                    + "(see Docs/Site.md); a gateway's configuration has source: and no gateways:")
        }
        if configuration.source == nil {
            try checkHubWithoutSource(configuration, node: node, site: site, hub: hub)
        }
        var asHub = configuration
        asHub.source = .hub
        try buildPipeline(asHub, node: node, registry: registry)
        let partition = hub.partition.of == 1 ? "" : ", partition \(hub.partition.index) of \(hub.partition.of)"
        let kind = ConfigurationFileKind.hub
        // The foreign nodes among the gateways, by kind: "3 espresense, 1 openmqttgateway".
        let foreign = Dictionary(grouping: hub.foreignNodes.values, by: \.kind.rawValue).sorted { $0.key < $1.key }
            .map { "\($0.value.count) \($0.key)" }.joined(separator: ", ")
        return ConfigurationCheck(
            kind: kind,
            summary: "\(kind.rawValue) (for beacond hub\(configuration.source == nil ? "" : " or beacond run")): "
                + "site \(site.topics.site) (\(hub.layout.gateways.count) gateways\(foreign.isEmpty ? "" : " (\(foreign))") in "
                + "\(hub.layout.rooms.count) rooms: "
                + "\(hub.layout.rooms.joined(separator: ", ")); broker \(site.host):\(site.port)\(partition)), "
                + "hub: options, rooms as regions, " + tail(of: configuration))
    }

    /// What `GatewayConfiguration(node:)` checks of a file with `source: hub`, for a hub file
    /// without `source:` (which `beacond hub` runs as one): no `ranging:`, a partition within the
    /// site's buckets, a sink for the alerts' callbacks.
    static func checkHubWithoutSource(
        _ configuration: GatewayConfiguration, node: ConfigNode, site: SiteSettings, hub: HubSettings
    ) throws {
        if let ranging = node["ranging"] {
            throw ranging.error("a hub does no ranging of its own: its cycle and proximity bands are under hub:")
        }
        if hub.partition.of > site.topics.bucketCount {
            throw (node["hub"] ?? node).error(
                "hub.partition.of (\(hub.partition.of)) exceeds site.buckets (\(site.topics.bucketCount)): a hub would have no bucket"
            )
        }
        guard !configuration.sinks.contains(where: { $0.settings.sendsCallbacks }),
            let alerts = try? node["alerts"]?.sequence()
        else { return }
        for alert in alerts {
            guard let key = AlertPolicy.callbackKeys.first(where: { alert[$0] != nil }) else { continue }
            throw alert[key]!.error(
                "alert '\((try? alert["id"]?.string()) ?? "?")' has callbacks, but no sink sends them: add a webhook sink "
                    + "(it posts each event to its callback URL) or an exec sink (it gets the URL as BEACOND_DESTINATION)")
        }
    }

    /// An alerts-only file: its ranging and alerts; with `hub:`, a simulated site's alerts, whose
    /// rooms are the scenario's (the rooms alerts name are listed, not checked).
    static func checkAlertsOnly(
        _ configuration: GatewayConfiguration, node: ConfigNode, registry: StrategyRegistry
    ) throws -> ConfigurationCheck {
        guard let fusion = configuration.siteFusion else {
            do {
                try buildPipeline(configuration, node: node, registry: registry)
            } catch GatewayError.pipeline(.strategy(let alertID, let message))
                where !Set(roomsNamed(by: configuration, registry: registry))
                .isSubset(of: configuration.ranging.regions.map(\.id))
            {
                // Alerts naming regions no ranging: defines: likely a simulated site's alerts, naming
                // the scenario's rooms. Say how such a file says so.
                throw GatewayError.pipeline(
                    .strategy(
                        alertID: alertID,
                        message: message + "; if this is a simulated site's alerts file, whose rooms are its scenario's, "
                            + "say so with a hub: section (hub: {} for the defaults)"))
            }
            let kind = ConfigurationFileKind.alertsOnly
            return ConfigurationCheck(
                kind: kind,
                summary: "\(kind.rawValue): checked ranging (\(configuration.ranging.regions.count) regions) and "
                    + "\(configuration.alerts.count) alerts (strategies, parameters, policies); no source, state or sinks "
                    + "(for beacond replay/simulate --config; beacond run needs a source:, beacond hub site: and gateways:)")
        }
        // The scenario has the gateways and rooms: stand in one gateway per room an alert names.
        let rooms = roomsNamed(by: configuration, registry: registry)
        var asHub = configuration
        asHub.source = .hub
        asHub.hub = HubSettings(
            layout: try SiteLayout(
                gateways: rooms.isEmpty
                    ? [SiteGateway(id: "gateway")]
                    : rooms.indices.map { SiteGateway(id: "gateway-\($0)", room: rooms[$0]) }),
            fusion: fusion)
        try buildPipeline(asHub, node: node, registry: registry)
        let kind = ConfigurationFileKind.siteAlerts
        let named =
            rooms.isEmpty ? "" : " (rooms named: \(rooms.joined(separator: ", ")), checked against its scenario's by simulate)"
        return ConfigurationCheck(
            kind: kind,
            summary: "\(kind.rawValue): checked hub: options and \(configuration.alerts.count) alerts (strategies, "
                + "parameters, policies)\(named); no source, state or sinks (for beacond simulate --config with a "
                + "scenario with rooms:)")
    }

    /// The regions the alerts' strategies observe, in order, each once (a strategy that cannot be
    /// made is left to the pipeline to report).
    static func roomsNamed(by configuration: GatewayConfiguration, registry: StrategyRegistry) -> [String] {
        var rooms: [String] = []
        for alert in (try? configuration.pipelineAlerts()) ?? [] {
            guard let strategy = try? registry.makeStrategy(key: alert.strategy, parameters: alert.parameters) else { continue }
            for room in strategy.regionsObserved where !rooms.contains(room) { rooms.append(room) }
        }
        return rooms
    }

    /// Builds the pipeline the file describes; an error about an alert that does not say where
    /// it is (a region its strategy names) is put at the alert's line.
    static func buildPipeline(_ configuration: GatewayConfiguration, node: ConfigNode, registry: StrategyRegistry) throws {
        do {
            _ = try AlertPipeline(configuration: configuration, registry: registry)
        } catch {
            guard case .strategy(let alertID, let message) = error, !message.contains("\(node.file):"),
                let alert = (try? node["alerts"]?.sequence())?.first(where: { (try? $0["id"]?.string()) == alertID })
            else { throw GatewayError.pipeline(error) }
            throw GatewayError.pipeline(.strategy(alertID: alertID, message: "\(node.file):\(alert.line ?? 1): \(message)"))
        }
    }

    /// The state, sinks, alerts and control endpoint, as the summary ends.
    static func tail(of configuration: GatewayConfiguration) -> String {
        let sinks = configuration.sinks.map(\.name).joined(separator: ", ")
        return "state \(configuration.statePath ?? "in memory"), sinks [\(sinks)], \(configuration.alerts.count) alerts"
            + (configuration.control.map { ", http \($0.host):\($0.port)" } ?? "")
    }
}

/// Validates a configuration file as `beacond check-config` does (see ``ConfigurationCheck/check(path:registry:checkingStateFile:)``).
/// - Returns: a one-line summary of what was checked, starting with the kind of file.
public func checkGatewayConfiguration(path: String, registry: StrategyRegistry = .builtIn()) throws -> String {
    try ConfigurationCheck.check(path: path, registry: registry).summary
}
