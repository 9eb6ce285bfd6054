import BeaconCore
import BeaconSiteLink
import ServiceLifecycle

/// Runs a hub's ``HubLease`` for as long as the daemon runs: started before the dispatchers, it
/// stops after them, so the commits of the hub's last moments are still announced; then the hub
/// says `offline` and a standby takes over at once.
struct HubLeaseService: Service {
    let lease: HubLease
    let clock: AnyTimestampClock

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await lease.run(clock: clock)
        }
    }
}
