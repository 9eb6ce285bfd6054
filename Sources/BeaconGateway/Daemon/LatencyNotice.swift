import BeaconCore
import BeaconDaemonConfiguration
import BeaconSinks

/// The `latencyObjectiveMissed` and `latencyObjectiveMet` lifecycle events a daemon writes to every
/// sink when a sink's alert latency crosses the objective of `latency:` (``AlertLatency``).
///
/// One JSON line like the gateway's lifecycle events (`event`, `time`, `message`, `key`), with
/// the sink in place of an alert and a beacon: `sink`, `latency` (seconds at the percentile over
/// the window), `percentile` (0–100), `objective` (seconds), `deliveries` and `window` (seconds).
/// The key, `latency|<sink>|<event>|<time in ns>`, is the same for every retry.
enum LatencyNotice {
    /// The event of `change`.
    static func event(for change: AlertLatency.ObjectiveChange) -> OutboundEvent {
        let kind = change.missed ? "latencyObjectiveMissed" : "latencyObjectiveMet"
        let key = "latency|\(change.sink)|\(kind)|\(change.time.nanosecondsSinceEpoch)"
        let percentile = change.objective.percentile * 100
        var json = JSONWriter()
        json.object { json in
            json.member("event", kind)
            json.member("sink", change.sink)
            json.member("time", change.time.rfc3339String)
            json.member("latency", (change.latency * 1000).rounded() / 1000)
            json.member("percentile", percentile)
            json.member("objective", change.objective.objective.secondsValue)
            json.member("deliveries", change.deliveries)
            json.member("window", change.objective.window.secondsValue)
            json.member("message", message(for: change))
            json.member("key", key)
        }
        return OutboundEvent(key: key, body: json.string)
    }

    /// What the event and the log say: the sink, the percentile, its latency and the objective.
    static func message(for change: AlertLatency.ObjectiveChange) -> String {
        let percentile = change.objective.percentile * 100
        let p = percentile == percentile.rounded() ? "p\(Int(percentile))" : "p\(percentile)"
        let (latency, objective) = (hundredths(change.latency), hundredths(change.objective.objective.secondsValue))
        return change.missed
            ? "sink '\(change.sink)': the \(p) alert latency is \(latency) s over its latest \(change.deliveries) deliveries, above the objective of \(objective) s"
            : "sink '\(change.sink)': the \(p) alert latency is back to \(latency) s, within the objective of \(objective) s"
    }

    private static func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
