import BeaconAlerting
import BeaconSimulator
import BeaconStrategies
import Foundation

/// Validates a configuration file the way `beacond run` would use it, without opening the
/// radio, the state file or the sinks: the keys and values (line-numbered errors), a source that
/// exists (a readable scenario or capture), and every alert's strategy and policy.
/// - Returns: a one-line summary (source, state, sinks, alerts, control endpoint).
public func checkGatewayConfiguration(path: String, registry: StrategyRegistry = .builtIn()) throws -> String {
    let configuration = try GatewayConfiguration.load(path: path)
    guard let source = configuration.source else { throw GatewayError.noSource(file: path) }
    switch source {
    case .simulate(let scenario, _):
        do { _ = try Scenario.load(path: scenario) } catch { throw GatewayError.source("\(error)") }
    case .replay(let capture, _):
        do { _ = try CaptureReplaySource(path: capture) } catch { throw GatewayError.source("\(capture): \(error)") }
    case .hci:
        break
    }
    do {
        _ = try AlertPipeline(configuration: configuration, registry: registry)
    } catch {
        throw GatewayError.pipeline(error)
    }
    let sinks = configuration.sinks.map(\.name).joined(separator: ", ")
    return "source \(source), state \(configuration.statePath ?? "in memory"), "
        + "sinks [\(sinks)], \(configuration.alerts.count) alerts"
        + (configuration.control.map { ", http \($0.host):\($0.port)" } ?? "")
}
