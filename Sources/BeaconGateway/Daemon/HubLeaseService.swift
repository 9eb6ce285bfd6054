import BeaconCore
import BeaconSiteLink
import ServiceLifecycle

/// Runs a hub's ``HubLease`` for as long as the daemon runs: started before the dispatchers, it
/// stops after them, so the commits of the hub's last moments are still announced; then the hub
/// says `offline` and a standby takes over at once.
struct HubLeaseService: Service {
    let lease: HubLease
    let clock: AnyTimestampClock
    /// Told when the election has settled (the hub knows its role).
    let readiness: Readiness

    func run() async throws {
        try await cancelWhenGracefulShutdown { [readiness] in
            try await lease.run(clock: clock) { readiness.met(GatewayReadiness.takeoverElection) }
        }
    }
}
