import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconStrategyKit
import Logging
import Synchronization
import UnixSignals

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one way a daemon runs — `beacond run`, `beacond hub` and `beacond simulate --serve`: the
/// gateway's services (``Gateway/run()``) with its control endpoint beside them, and the signals.
///
/// The run owns SIGINT, SIGTERM and SIGHUP for as long as it runs (nothing else in the process
/// traps them): the first SIGINT or SIGTERM stops the gateway (the source stops, each sink gets a
/// last attempt, what it did not confirm stays in the outbox), a second exits at once; SIGHUP
/// re-reads the configuration file (``ConfigurationReloader``), as `POST /reload` does. Under a
/// systemd watchdog (`WatchdogSec=`) it says `WATCHDOG=1` twice per period for as long as the
/// pipeline answers. The control endpoint closes
/// after the gateway's services have stopped, so `/health` says `stopping` while they drain.
/// When and how it stops is ``DaemonShutdown``'s decision; this type only performs its actions.
public final class DaemonRun: Sendable {
    /// The gateway (or hub) being run.
    public let gateway: Gateway
    /// The control endpoint, if the configuration has `http:`.
    public let control: ControlServer?
    /// What re-reads the configuration file on SIGHUP and `POST /reload` (`nil`: no file).
    public let reloader: ConfigurationReloader?
    private let machine: Mutex<DaemonShutdown>
    private let events: AsyncStream<DaemonShutdown.Event>
    private let continuation: AsyncStream<DaemonShutdown.Event>.Continuation
    private let say: @Sendable (String) -> Void
    private let exit: @Sendable (Int32) -> Void

    /// A run of a built gateway and its bound endpoint.
    /// - Parameters:
    ///   - gateway: the gateway.
    ///   - control: its control endpoint, if any (bound, not yet running).
    ///   - afterSourceEnds: what to do when the source ends by itself.
    ///   - say: where a line for the person at the terminal goes (the command line writes it to
    ///     standard error).
    ///   - exit: how to leave the process at a second signal (`exit(3)` by default).
    ///   - reloader: what re-reads the configuration file, if there is one.
    public init(
        gateway: Gateway, control: ControlServer?, reloader: ConfigurationReloader? = nil,
        afterSourceEnds: DaemonShutdown.AfterSourceEnds = .stop,
        say: @escaping @Sendable (String) -> Void,
        exit: @escaping @Sendable (Int32) -> Void = { status in _exit(status) }
    ) {
        self.gateway = gateway
        self.control = control
        self.reloader = reloader
        machine = Mutex(DaemonShutdown(afterSourceEnds: afterSourceEnds))
        (events, continuation) = AsyncStream.makeStream(of: DaemonShutdown.Event.self)
        self.say = say
        self.exit = exit
    }

    /// Builds the gateway of a configuration and binds its control endpoint (`http:`), logging
    /// where it listens; with `reloadsFile`, SIGHUP and `POST /reload` re-read `file`.
    /// - Throws: what ``buildGateway(_:file:registry:clock:logger:)`` and `ControlServer.bind`
    ///   throw: a configuration that cannot run.
    public static func start(
        _ configuration: GatewayConfiguration, file: String, reloadsFile: Bool = true, registry: StrategyRegistry,
        logger: Logger, afterSourceEnds: DaemonShutdown.AfterSourceEnds = .stop,
        say: @escaping @Sendable (String) -> Void
    ) async throws -> DaemonRun {
        let gateway = try buildGateway(configuration, file: file, registry: registry, logger: logger)
        let reloader =
            reloadsFile ? try ConfigurationReloader(path: file, gateway: gateway, registry: registry, logger: logger) : nil
        return try await start(
            gateway, reloader: reloader, logger: logger, afterSourceEnds: afterSourceEnds, say: say)
    }

    /// Binds the control endpoint of a gateway built by the caller (`simulate SITE --serve`'s
    /// hub, fed by its simulated gateways), logging where it listens.
    /// - Throws: what `ControlServer.bind` throws.
    public static func start(
        _ gateway: Gateway, reloader: ConfigurationReloader? = nil, logger: Logger,
        afterSourceEnds: DaemonShutdown.AfterSourceEnds = .stop, say: @escaping @Sendable (String) -> Void
    ) async throws -> DaemonRun {
        let configuration = gateway.configuration
        var server: ControlServer?
        if let control = configuration.control {
            var routes = gateway.controlRoutes
            if let reloader { routes.reload = { await reloader.reload() } }
            let bound = try await ControlServer.bind(host: control.host, port: control.port, routes: routes)
            let authentication = control.token == nil ? "" : "; requests need its bearer token"
            let routesListed = "GET /metrics, GET /health, POST /events/NAME" + (reloader == nil ? "" : ", POST /reload")
            logger.notice("control endpoint on \(bound.url) (\(routesListed))\(authentication)")
            server = bound
        }
        return DaemonRun(
            gateway: gateway, control: server, reloader: reloader, afterSourceEnds: afterSourceEnds, say: say)
    }

    /// Where the run is.
    public var state: DaemonShutdown.State { machine.withLock { $0.state } }

    /// Stops the run as a signal would (the first: a graceful stop; a second: exit). Safe from
    /// any thread.
    public func requestStop() {
        continuation.yield(.signal)
    }

    /// Runs until the gateway has stopped and the control endpoint is closed.
    /// - Parameters:
    ///   - signals: the signals that stop it (none in tests, which call ``requestStop()``).
    ///   - reloadSignal: whether SIGHUP reloads the configuration (when there is a ``reloader``).
    ///   - notifier: the service manager to tell of the watchdog (the process's `NOTIFY_SOCKET`).
    /// - Throws: what ended the gateway's services, other than a stop (e.g. `BlueZScannerError`).
    public func run(
        signals: [UnixSignal] = [.sigterm, .sigint], reloadSignal: Bool = true,
        notifier: SystemdNotifier = SystemdNotifier()
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let control {
                group.addTask { [continuation] in
                    do {
                        try await control.run()
                    } catch is CancellationError {
                        // Closed, then cancelled with the rest at the end: not a failure.
                    } catch {
                        continuation.yield(.controlFailed)
                        throw error
                    }
                }
            }
            if !signals.isEmpty {
                let trapped = await UnixSignalsSequence(trapping: signals)
                group.addTask { [continuation] in
                    for await _ in trapped { continuation.yield(.signal) }
                }
            }
            if reloadSignal, let reloader {
                let hangups = await UnixSignalsSequence(trapping: .sighup)
                group.addTask {
                    for await _ in hangups { _ = await reloader.reload() }
                }
            }
            if let interval = notifier.watchdogInterval {
                group.addTask { [gateway] in
                    // The service manager's real time, not the daemon's (a simulation's clock may
                    // race or stand still): alive is answering within its period.
                    while !Task.isCancelled {
                        if (try? await gateway.runner.inspect()) != nil { notifier.watchdog() }
                        try? await Task.sleep(for: interval / 2)
                    }
                }
            }
            group.addTask { [gateway, continuation] in
                do {
                    try await gateway.run()
                    continuation.yield(.gatewayEnded)
                } catch {
                    continuation.yield(.gatewayFailed)
                    throw error
                }
            }
            for await event in events {
                let actions = machine.withLock { $0.handle(event) }
                for action in actions { perform(action, in: &group) }
                if machine.withLock({ $0.state }) == .finished { break }
            }
            // The signal watcher and a linger timer have nothing left to do; the gateway and the
            // endpoint have returned or are returning (its error, if any, is thrown here).
            group.cancelAll()
            try await group.waitForAll()
        }
    }

    private func perform(_ action: DaemonShutdown.Action, in group: inout ThrowingTaskGroup<Void, any Error>) {
        switch action {
        case .say(let line): say(line)
        case .stopGateway:
            SystemdNotifier().stopping()
            gateway.stop()
        case .closeControl: control?.close()
        case .linger(let duration):
            group.addTask { [continuation, clock = gateway.clock] in
                // On the daemon's clock, like every other wait of the daemon.
                try? await clock.sleep(for: duration)
                continuation.yield(.lingerElapsed)
            }
        case .exit(let status): exit(status)
        }
    }
}
