import BeaconCore
import BeaconPipeline
import BeaconSimulator
import BeaconSiteReport

/// A simulated site's gateways as a hub's source of reports (`beacond simulate SITE --serve`):
/// every gateway of the scenario hears it through its own radio and ranging, in this process,
/// and their reports go to a daemon's hub, paced at `speed` × real time.
///
/// `@unchecked Sendable`: the simulation is run by the one task of the daemon's source service,
/// and by nothing else.
public struct SimulatedSiteReports: SiteReportSource, @unchecked Sendable {
    private let simulation: SiteSimulation
    private let speed: Double?

    /// The gateways of `simulation`, `speed` times faster than real time (`nil`: as fast as the
    /// CPU allows).
    public init(simulation: SiteSimulation, speed: Double?) {
        self.simulation = simulation
        self.speed = speed
    }

    public var name: String { "sim:\(simulation.scenario.name) (site of \(simulation.scenario.gateways.count) gateways)" }

    public func run(
        send: @Sendable ([GatewayReportMessage]) async throws -> Void,
        advance: @Sendable (Timestamp) async throws -> Void
    ) async throws {
        try await simulation.runGateways(speed: speed, send: send, advance: advance)
    }
}
