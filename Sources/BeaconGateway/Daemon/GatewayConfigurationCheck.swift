import BeaconPipeline
import BeaconRanging
import BeaconSimulator
import BeaconSite
import BeaconStrategies
import BeaconStrategyKit
import Foundation

/// Validates a configuration file the way `beacond run` would use it, without opening the
/// radio, the state file or the sinks: the keys and values (line-numbered errors), a source that
/// exists (a readable scenario or capture), and every alert's strategy and policy.
/// A file without `source:` is an alerts-only file (as `beacond replay --config` and
/// `simulate --config` take): its ranging and alerts are checked, and the summary says so.
/// - Returns: a one-line summary of what was checked (source, state, sinks, alerts, control endpoint).
public func checkGatewayConfiguration(path: String, registry: StrategyRegistry = .builtIn()) throws -> String {
    let configuration = try GatewayConfiguration.load(path: path)
    guard let source = configuration.source else {
        do {
            _ = try AlertPipeline(configuration: configuration, registry: registry)
        } catch {
            throw GatewayError.pipeline(error)
        }
        return "an alerts-only file: checked ranging (\(configuration.ranging.regions.count) regions) and "
            + "\(configuration.alerts.count) alerts (strategies, parameters, policies); no source, state or sinks "
            + "(for beacond replay/simulate --config; beacond run needs a source:)"
    }
    switch source {
    case .simulate(let scenario, _, let gateway, _, _):
        _ = try loadSimulatedGateway(path: scenario, gateway: gateway)
    case .replay(let capture, _, _):
        do { _ = try CaptureReplaySource(path: capture) } catch { throw GatewayError.source("\(capture): \(error)") }
    case .hci, .hub:
        break
    }
    do {
        _ = try AlertPipeline(configuration: configuration, registry: registry)
    } catch {
        throw GatewayError.pipeline(error)
    }
    let sinks = configuration.sinks.map(\.name).joined(separator: ", ")
    let site = configuration.site.map { site in
        let role =
            source == .hub
            ? "hub of \(configuration.hub?.layout.gateways.count ?? 0) gateways in \(configuration.hub?.layout.rooms.count ?? 0) rooms"
            : "gateway '\(site.gateway)'"
        return ", site \(site.topics.site) (\(role), broker \(site.host):\(site.port))"
    }
    return "source \(source)\(site ?? ""), state \(configuration.statePath ?? "in memory"), "
        + "sinks [\(sinks)], \(configuration.alerts.count) alerts"
        + (configuration.control.map { ", http \($0.host):\($0.port)" } ?? "")
}
