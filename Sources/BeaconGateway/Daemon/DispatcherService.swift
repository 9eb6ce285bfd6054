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
        // Two children: the dispatcher, and what the graceful shutdown asks of it. The service
        // returns when the dispatcher does; the other child is then cancelled.
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { [dispatcher] in
                await dispatcher.run()
                return true
            }
            group.addTask { [dispatcher, lifecycle] in
                await Self.endOnShutdown(dispatcher, lifecycle)
                return false
            }
            while let dispatcherReturned = await group.next() {
                if dispatcherReturned { break }
            }
            group.cancelAll()
        }
        let left = (try? outbox.backlog(sink: name)) ?? 0
        if left > 0 {
            logger.warning(
                "sink '\(name)': \(left) events left in the outbox for the next start",
                metadata: ["sink": "\(name)", "backlog": "\(left)"])
        }
    }

    /// Waits for the graceful shutdown, then asks the dispatcher to drain (the source ended by
    /// itself) or to finish (the daemon is stopped); returns at once when cancelled.
    private static func endOnShutdown(_ dispatcher: OutboxDispatcher, _ lifecycle: GatewayLifecycle) async {
        guard (try? await gracefulShutdown()) != nil else { return }
        guard lifecycle.sourceEnded && !lifecycle.stopping else {
            await dispatcher.finish()
            return
        }
        await dispatcher.finishWhenDrained()
        // A stop while the backlog drains (a webhook that is down) ends it with one last attempt.
        let (stops, stop) = AsyncStream.makeStream(of: Void.self)
        lifecycle.whenStopping { stop.finish() }
        for await _ in stops {}
        if !Task.isCancelled { await dispatcher.finish() }
    }
}
