import BeaconBlueZ
import BeaconCore
import BeaconDaemonConfiguration
import BeaconSimulator
import Logging

/// The daemon's advertisement source of a `source:` definition: a simulation (paced, on the
/// daemon's clock), a capture replay, or the BlueZ scanner (recording what it hears when asked);
/// and whether it is live (a radio, on the wall clock). A recording keeps packets for
/// `recordingRetention` (`nil`: for good).
func makeSource(
    _ definition: SourceDefinition, site: SiteSettings?, recordingRetention: Duration? = nil, clock: AnyTimestampClock,
    metrics: GatewayMetrics, logger: Logger
) throws(GatewayError) -> (any AdvertisementSource, Bool) {
    switch definition {
    case .simulate(let path, let speed, let gatewayName, let onWallClock, _, let startFile):
        let (scenario, gatewayIndex) = try loadSimulatedGateway(path: path, gateway: gatewayName)
        if let startFile {
            // Held until released: the scenario's own start is replaced by the file's.
            _ = try ReleasedSimulation.startTime(in: startFile) // a file already there must hold a time
            let source = ReleasedSimulation(
                scenario: scenario, gatewayIndex: gatewayIndex, startFile: startFile, clock: clock, logger: logger)
            return (source, true)
        }
        let pace: SimulationSpeed = onWallClock ? .wallClock : speed.map(SimulationSpeed.factor) ?? .max
        let simulation = Simulation(scenario: scenario, gatewayIndex: gatewayIndex, speed: pace, wallClock: clock)
        if onWallClock {
            let name = scenario.gateways[gatewayIndex].name
            let (start, end) = (simulation.scenario.start.rfc3339String, simulation.scenario.end.rfc3339String)
            logger.info("simulating gateway '\(name)' of \(path) on the wall clock, from \(start) to \(end)")
        }
        // On the wall clock the simulation is live: cycles close on the clock while nothing is heard.
        return (simulation, onWallClock)
    case .replay(let path, let speed, _):
        do {
            return (try CaptureReplaySource(path: path, speed: speed), false)
        } catch {
            throw .source("\(path): \(error)")
        }
    case .hub:
        throw .source("source: hub needs site: and gateways: (a site hub's configuration)")
    case .hci(let radio):
        do {
            // A site gateway with advertise: true also advertises its identity from the adapter.
            let configuration = try radio.scannerConfiguration(advertising: try site?.advertising())
            let scanner = BlueZScanner(configuration: configuration, clock: WallClock()) { event in
                metrics.record(event)
                switch event.level {
                case .info: logger.info("\(event)", metadata: ["component": "scanner"])
                case .warning: logger.warning("\(event)", metadata: ["component": "scanner"])
                case .error: logger.error("\(event)", metadata: ["component": "scanner"])
                }
            }
            guard let record = radio.record else { return (scanner, true) }
            return (try RecordingSource(scanner, path: record, retention: recordingRetention), true)
        } catch {
            throw .source("\(error)")
        }
    }
}

/// The scenario at `path` and the index of its gateway named `gateway` (`nil`: the first).
/// - Throws: ``GatewayError/source(_:)`` for a scenario that cannot be read or has no such gateway.
func loadSimulatedGateway(path: String, gateway: String?) throws(GatewayError) -> (Scenario, Int) {
    let scenario: Scenario
    do {
        scenario = try Scenario.load(path: path)
    } catch {
        throw .source("\(error)")
    }
    guard let gateway else { return (scenario, 0) }
    guard let index = scenario.gateways.firstIndex(where: { $0.name == gateway }) else {
        throw .source(
            "\(path) has no gateway '\(gateway)'; its gateways are " + scenario.gateways.map(\.name).joined(separator: ", "))
    }
    return (scenario, index)
}
