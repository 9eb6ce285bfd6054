import BeaconConfiguration
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconStrategyKit
import Logging

/// Re-reads a running daemon's configuration file — on `SIGHUP`, `systemctl reload` and
/// `POST /reload` — and applies it whole or not at all.
///
/// The file is first checked as `beacond check-config` checks it. Then it is compared, key by
/// key, with the file the daemon runs: only `alerts:` (a local list) changes live, handed to the
/// pipeline between two inputs, so an alert that stays keeps its state (its pending and
/// delivered instances, its strategy's per-beacon state), a new one starts afresh and a
/// removed one stops. Any other key that differs (the source, the sinks, `beacons:`, `http:`,
/// `site:`, `hub:` …) is read at start only: the reload is then refused, nothing of the file is
/// applied, and the answer names those keys. Each outcome is logged, filed on the page
/// (`ReloadBoard`) and, under systemd, bracketed by `RELOADING=1` and `READY=1`.
public actor ConfigurationReloader {
    /// The configuration file.
    public nonisolated let path: String
    private let registry: StrategyRegistry
    private let gateway: Gateway
    private let logger: Logger
    private let notifier: SystemdNotifier
    /// The running file's top-level values, by key.
    private var running: [String: ConfigValue]
    /// The running local alerts' values, by id, in file order.
    private var runningAlerts: [(id: String, value: ConfigValue)]
    /// The latest reload, which the next one waits for: one at a time, in the order asked.
    private var latest: Task<ReloadStatus, Never>?

    /// A reloader of `path` for `gateway`, which runs that file as it reads now.
    /// - Throws: `ConfigurationError` when the file cannot be read again (it was read a moment ago).
    public init(
        path: String, gateway: Gateway, registry: StrategyRegistry, logger: Logger,
        notifier: SystemdNotifier = SystemdNotifier()
    ) throws(ConfigurationError) {
        self.path = path
        self.gateway = gateway
        self.registry = registry
        self.logger = logger
        self.notifier = notifier
        let node = try ConfigNode.load(path: path)
        running = Self.topLevel(node)
        runningAlerts = Self.alertValues(node)
    }

    /// Re-reads the file and applies it if it can be applied whole; files, logs and answers
    /// what came of it. Reloads asked together (a SIGHUP and a `POST /reload`) run one after the
    /// other.
    public func reload() async -> ReloadStatus {
        let previous = latest
        let next = Task { [previous] in
            _ = await previous?.value
            return await self.performReload()
        }
        latest = next
        return await next.value
    }

    private func performReload() async -> ReloadStatus {
        // A daemon not ready yet (a hub waiting for its broker) is not told READY=1 by a reload.
        let ready = gateway.readiness.isReady
        if ready { notifier.reloading() }
        let status = await attempt(at: gateway.clock.now)
        gateway.reloadBoard.record(status)
        gateway.statusBoard.invalidate()
        switch status.outcome {
        case .applied: logger.notice("reload: \(status.detail)")
        case .unchanged: logger.info("reload: \(status.detail)")
        case .rejected: logger.error("reload: \(status.detail)")
        case .needsRestart: logger.warning("reload: \(status.detail)")
        }
        if ready {
            notifier.ready(status: "running; reload \(status.outcome.rawValue)")
        } else {
            notifier.status(
                "starting: waiting for \(gateway.readiness.waitingFor.joined(separator: ", ")); reload \(status.outcome.rawValue)"
            )
        }
        return status
    }

    private func attempt(at time: Timestamp) async -> ReloadStatus {
        func refused(_ outcome: ReloadStatus.Outcome, _ why: String) -> ReloadStatus {
            ReloadStatus(file: path, time: time, outcome: outcome, detail: "kept the running configuration: " + why)
        }
        let node: ConfigNode
        var configuration: GatewayConfiguration
        do {
            _ = try ConfigurationCheck.check(path: path, registry: registry, checkingStateFile: false)
            node = try ConfigNode.load(path: path)
            configuration = try GatewayConfiguration(node: node)
            if gateway.configuration.source == .hub { configuration = try configuration.asHub(file: path) }
        } catch {
            return refused(.rejected, "\(error) (fix the file, check it with beacond check-config \(path), reload again)")
        }
        let values = Self.topLevel(node)
        let keys = Set(values.keys).union(running.keys).sorted()
        let fixed = keys.filter { key in
            guard !Self.sameIgnoringOrder(values[key], running[key]) else { return false }
            // A local alert list changes live; the remote document's settings do not.
            return key != "alerts" || Self.isRemote(values[key]) || Self.isRemote(running[key])
        }
        if !fixed.isEmpty {
            return refused(
                .needsRestart,
                "\(fixed.map { $0 + ":" }.joined(separator: ", ")) changed, which is read at start only; "
                    + "restart the daemon to apply the file (systemctl restart beacond), or undo "
                    + (fixed.count == 1 ? "that change" : "those changes") + " and reload again")
        }
        let alerts = Self.alertValues(node)
        let added = alerts.filter { new in !runningAlerts.contains { $0.id == new.id } }.map(\.id)
        let removed = runningAlerts.filter { old in !alerts.contains { $0.id == old.id } }.map(\.id)
        let changed = alerts.filter { new in
            runningAlerts.contains { $0.id == new.id && !Self.sameIgnoringOrder($0.value, new.value) }
        }.map(\.id)
        if added.isEmpty, removed.isEmpty, changed.isEmpty {
            return ReloadStatus(file: path, time: time, outcome: .unchanged, detail: "\(path) is what runs: nothing to apply")
        }
        do {
            try await gateway.runner.replaceAlerts(try AlertPipeline.pipelineAlerts(configuration.alerts), registry: registry)
        } catch {
            return refused(.rejected, "the new alerts cannot run: \(error)")
        }
        running = values
        runningAlerts = alerts
        let parts = [("added", added), ("removed", removed), ("changed", changed)].filter { !$0.1.isEmpty }
            .map { "\($0.0) \($0.1.joined(separator: ", "))" }
        return ReloadStatus(
            file: path, time: time, outcome: .applied,
            detail: "applied \(path): alerts \(parts.joined(separator: "; ")) (\(alerts.count) run)",
            added: added, removed: removed, changed: changed)
    }

    private static func topLevel(_ node: ConfigNode) -> [String: ConfigValue] {
        guard case .map(let members) = node.value else { return [:] }
        return Dictionary(members, uniquingKeysWith: { first, _ in first })
    }

    /// Each alert of a local `alerts:` list: its id and its value (an alert without an id, which
    /// the check refuses, is not listed).
    private static func alertValues(_ node: ConfigNode) -> [(id: String, value: ConfigValue)] {
        guard let list = node["alerts"], let items = try? list.sequence() else { return [] }
        return items.compactMap { item in
            guard let id = try? item["id"]?.string() else { return nil }
            return (id, item.value)
        }
    }

    /// Whether two values are the same, whatever the order of a mapping's keys (a key moved
    /// within `sinks:` changes nothing).
    static func sameIgnoringOrder(_ a: ConfigValue?, _ b: ConfigValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.scalar(let x)?, .scalar(let y)?): return x == y
        case (.list(let x)?, .list(let y)?): return x.count == y.count && zip(x, y).allSatisfy { sameIgnoringOrder($0, $1) }
        case (.map(let x)?, .map(let y)?):
            guard x.count == y.count else { return false }
            let sorted = { (entries: [(String, ConfigValue)]) in entries.sorted { $0.0 < $1.0 } }
            return zip(sorted(x), sorted(y)).allSatisfy { $0.0 == $1.0 && sameIgnoringOrder($0.1, $1.1) }
        default: return false
        }
    }

    private static func isRemote(_ value: ConfigValue?) -> Bool {
        if case .map = value { return true }
        return false
    }
}
