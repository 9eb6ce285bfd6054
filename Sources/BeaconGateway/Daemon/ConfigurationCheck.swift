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
            try AlertStateFile.check(at: path)
        } catch {
            throw (node["state"] ?? node).error("\(error)")
        }
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
