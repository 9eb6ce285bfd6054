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

/// The checks of a site's files: its recordings, a hub's configuration, a simulated site's alerts.
extension ConfigurationCheck {
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
}
