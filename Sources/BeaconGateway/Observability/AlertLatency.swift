import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconSinks
import Logging
import Prometheus
import Synchronization

/// The advertisement-to-sink latency of delivered alerts: from the advertisement a delivery
/// rested on (`OutboundEvent.origin`) to the moment its sink confirmed it, on the daemon's
/// clock — through the ranging cycle, a hub's fusion, the outbox, retries and restarts.
///
/// Each confirmed delivery goes to the histogram `beacond_alert_latency_seconds{alert, sink}`
/// and to its sink's window (`LatencyWindow`: `/api/status`'s `latency`). With an objective
/// (`latency:`), a sink whose percentile over the window crosses it is reported once to the
/// handler of ``onObjectiveChange(_:)`` — and once more when it is back under.
///
/// Only a live daemon measures (a radio, a simulation on the wall clock, a hub): an event's
/// origin is in its source's time, which is the clock's only then.
public final class AlertLatency: Sendable {
    /// A sink's percentile crossed the objective (``missed``), or came back under it.
    public struct ObjectiveChange: Sendable {
        /// The sink's name.
        public var sink: String
        /// Whether the objective is missed from now on (false: met again).
        public var missed: Bool
        /// The latency at the objective's percentile over the window, seconds.
        public var latency: Double
        /// The deliveries in the window.
        public var deliveries: Int
        /// The objective.
        public var objective: LatencyObjective
        /// When it changed (the delivery that moved the percentile).
        public var time: Timestamp
    }

    /// The histogram's upper bounds: a cycle and a report take about a second each; a sink that
    /// retries or a restart takes minutes.
    static let buckets: [Duration] = [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30, 60, 300, 900].map { .milliseconds(Int64($0 * 1000)) }

    private struct SinkState {
        var window: LatencyWindow
        var missed = false
    }

    private let registry: PrometheusCollectorRegistry
    private let clock: AnyTimestampClock
    private let objective: LatencyObjective?
    private let onObjective = Mutex<(@Sendable (ObjectiveChange) -> Void)?>(nil)
    private let logger: Logger?
    private let sinks: Mutex<[String: SinkState]>
    private let sinkOrder: [String]

    /// Measures the deliveries of `sinks` on `clock`, into `metrics`' registry.
    /// - Parameters:
    ///   - sinks: the sinks' names, in configuration order.
    ///   - metrics: where the histograms go.
    ///   - objective: the latency promised, if any; its window is the status's too (15 minutes
    ///     without one).
    ///   - clock: the daemon's clock (the deliveries' moments).
    ///   - logger: gets a debug line per measured delivery, if given.
    public init(
        sinks: [String], metrics: GatewayMetrics, objective: LatencyObjective?, clock: AnyTimestampClock,
        logger: Logger? = nil
    ) {
        registry = metrics.registry
        self.clock = clock
        self.objective = objective
        self.logger = logger
        let window = objective?.window ?? .seconds(900)
        sinkOrder = sinks
        self.sinks = Mutex(Dictionary(sinks.map { ($0, SinkState(window: LatencyWindow(length: window))) }) { a, _ in a })
    }

    /// Records `event`'s delivery by `sink`, confirmed now, if it is a delivered alert.
    public func record(_ event: OutboundEvent, sink: String) {
        guard let origin = event.origin, let alertID = event.alertID else { return }
        let now = clock.now
        // A hub aligns its gateways' clocks to its own; what is left of a skew is not latency.
        let latency = max(.zero, now - origin)
        histogram(alert: alertID, sink: sink).record(latency)
        logger?.debug(
            "sink '\(sink)': delivered \(event.key) \(latency.secondsValue) s after its advertisement",
            metadata: ["sink": "\(sink)", "latency": "\(latency.secondsValue)"])
        let change: ObjectiveChange? = sinks.withLock { states in
            guard var state = states[sink] else { return nil }
            defer { states[sink] = state }
            state.window.add(latency.secondsValue, at: now)
            guard let objective, state.window.count >= objective.minDeliveries,
                let value = state.window.percentile(objective.percentile)
            else { return nil }
            let missed = value > objective.objective.secondsValue
            guard missed != state.missed else { return nil }
            state.missed = missed
            return ObjectiveChange(
                sink: sink, missed: missed, latency: value, deliveries: state.window.count, objective: objective, time: now)
        }
        if let change, let handler = onObjective.withLock({ $0 }) { handler(change) }
    }

    /// Sets what is called when a sink's percentile crosses the objective, either way (set once
    /// the daemon's outbox exists; a change before is not reported).
    public func onObjectiveChange(_ handler: @escaping @Sendable (ObjectiveChange) -> Void) {
        onObjective.withLock { $0 = handler }
    }

    /// Each sink's latency over the window as of now, in configuration order.
    public func summaries() -> [SinkLatency] {
        let now = clock.now
        return sinks.withLock { states in
            sinkOrder.compactMap { name in
                guard var state = states[name] else { return nil }
                state.window.expire(before: now)
                states[name] = state
                return SinkLatency(
                    sink: name, deliveries: state.window.count, p50: state.window.percentile(0.5),
                    p99: state.window.percentile(0.99), windowSeconds: state.window.length.secondsValue,
                    objectiveSeconds: objective?.objective.secondsValue,
                    // A window too thin for a verdict (the deliveries stopped) shows no miss.
                    objectiveMissed: state.missed && state.window.count >= (objective?.minDeliveries ?? 1))
            }
        }
    }

    /// The histogram of `alert` and `sink`: the registry makes it at its first delivery and hands
    /// back the same one after (deliveries are rare: no cache of our own).
    private func histogram(alert: String, sink: String) -> DurationHistogram {
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "beacond", metricName: "alert_latency", unitName: "seconds",
                helpText: "Advertisement-to-sink latency of delivered alerts"),
            labels: [("alert", alert), ("sink", sink)], buckets: Self.buckets)
    }
}
