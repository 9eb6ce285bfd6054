import BeaconDaemonConfiguration
import ServiceLifecycle

/// Keeps the beacon state observers (MQTT retained state) until the very end: at the group's
/// graceful shutdown — after the pipeline and every dispatcher have stopped, since it is started
/// before them — it lets them publish what is left and close their connections, which a sink's
/// dispatcher may share.
struct StateObserversService: Service {
    let observers: [any BeaconStateObserver]

    func run() async throws {
        try? await gracefulShutdown()
        for observer in observers { await observer.finish() }
    }
}
