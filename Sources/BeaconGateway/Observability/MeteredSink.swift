import BeaconControl
import BeaconSinks
import Metrics

/// A sink that counts and times what it passes on: deliveries, failures, and how long each
/// delivery took (`beacond_sink_*{sink="…"}`), on the clock it is given; tells the status
/// page's `AlertLog` what became of each event; and hands each confirmed delivery to
/// ``AlertLatency``, when the daemon measures it.
public struct MeteredSink: AlertSink {
    private let base: any AlertSink
    private let deliveries: Metrics.Counter
    private let failures: Metrics.Counter
    private let latency: Metrics.Timer
    private let clock: ContinuousClock
    private let sinkName: String
    private let log: AlertLog?
    private let alertLatency: AlertLatency?

    /// Wraps `base`, labelling its metrics with `sinkName` (its name in configuration),
    /// recording each attempt's outcome in `log` and each confirmed delivery's latency in
    /// `alertLatency`, if given.
    public init(
        _ base: any AlertSink, sinkName: String, metrics: GatewayMetrics, log: AlertLog? = nil,
        alertLatency: AlertLatency? = nil, clock: ContinuousClock = ContinuousClock()
    ) {
        self.base = base
        self.sinkName = sinkName
        self.log = log
        self.alertLatency = alertLatency
        deliveries = metrics.counter("beacond_sink_deliveries_total", [("sink", sinkName)])
        failures = metrics.counter("beacond_sink_failures_total", [("sink", sinkName)])
        latency = Metrics.Timer(
            label: "beacond_sink_delivery_seconds", dimensions: [("sink", sinkName)],
            factory: metrics.factory)
        self.clock = clock
    }

    /// The wrapped sink's name.
    public var name: String { base.name }
    /// As the wrapped sink.
    public var confirmsEachDelivery: Bool { base.confirmsEachDelivery }

    /// Delivers through the wrapped sink, counting the outcome and timing it.
    public func deliver(_ event: OutboundEvent) async throws {
        let start = clock.now
        do {
            try await base.deliver(event)
        } catch {
            failures.increment()
            log?.record(sink: sinkName, key: event.key, .failed("\(error)"))
            throw error
        }
        latency.record(duration: start.duration(to: clock.now))
        deliveries.increment()
        alertLatency?.record(event, sink: sinkName)
        log?.record(sink: sinkName, key: event.key, .delivered)
    }

    /// Flushes the wrapped sink; a failed flush counts as a failure.
    public func flush() async throws {
        do {
            try await base.flush()
        } catch {
            failures.increment()
            throw error
        }
    }
}
