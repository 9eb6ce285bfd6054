import BeaconSinks
import Logging
import ServiceLifecycle

/// One sink's ``OutboxDispatcher`` as a service. At the group's graceful shutdown it delivers
/// the whole backlog when the source ended by itself, or gives the sink one last attempt when
/// the daemon is stopped; what the sink did not confirm stays in the outbox for the next start.
struct DispatcherService: Service {
    let name: String
    let dispatcher: OutboxDispatcher
    let outbox: any Outbox
    let lifecycle: GatewayLifecycle
    let logger: Logger

    func run() async throws {
        await withGracefulShutdownHandler {
            await dispatcher.run()
        } onGracefulShutdown: { [dispatcher, lifecycle] in
            if lifecycle.sourceEnded && !lifecycle.stopping {
                Task { await dispatcher.finishWhenDrained() }
                // A stop while the backlog drains (a webhook that is down) ends it with one last attempt.
                lifecycle.whenStopping { Task { await dispatcher.finish() } }
            } else {
                Task { await dispatcher.finish() }
            }
        }
        let left = (try? outbox.backlog(sink: name)) ?? 0
        if left > 0 {
            logger.warning(
                "sink '\(name)': \(left) events left in the outbox for the next start",
                metadata: ["sink": "\(name)", "backlog": "\(left)"])
        }
    }
}
