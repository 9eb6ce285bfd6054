import BeaconCore
import BeaconStrategyKit

/// A custom strategy: fires once a beacon's filtered RSSI has stayed within `tolerance` dB of
/// its level for `duration` — the tag has been put down and is not moving (a parcel left on a
/// shelf, a trolley parked). A cycle without a sighting, or a jump beyond the tolerance, starts
/// a new stretch.
final class SteadySignalStrategy: BeaconAlertStrategyBase<SteadySignal> {
    static let key = "steady-signal"

    let duration: Duration
    let tolerance: Double

    init(duration: Duration, tolerance: Double, configuration: StrategyBaseConfiguration) {
        self.duration = duration
        self.tolerance = tolerance
        super.init(initialValue: SteadySignal(), configuration: configuration)
    }

    override var key: String { Self.key }

    override func updateAlertParameter(_ signal: inout SteadySignal, beacon: RangedBeacon?, now: Timestamp) {
        guard let beacon, beacon.seenThisCycle, let rssi = beacon.filteredRSSI else {
            signal.since = nil
            signal.steadyNow = false
            return
        }
        if signal.since == nil || abs(rssi - signal.reference) > tolerance {
            signal.since = now
            signal.reference = rssi
        }
        signal.steadyNow = true
    }

    override func isConditionValid(_ signal: SteadySignal, now: Timestamp) -> Bool {
        guard signal.steadyNow, let since = signal.since else { return false }
        return now - since >= duration
    }

    /// How long the current stretch has lasted, against `duration` (the status page's bar).
    override func progress(of signal: SteadySignal, now: Timestamp) -> StrategyProgress? {
        StrategyProgress(elapsed: signal.steadyNow ? now - (signal.since ?? now) : .zero, of: duration)
    }

    /// Where the stretch stands, in words (`explain` and the status page print it when it changes).
    override func explanation(of signal: SteadySignal, now: Timestamp) -> String? {
        guard signal.steadyNow, let since = signal.since else { return "not heard: no steady stretch" }
        return "steady at \(Int(signal.reference.rounded())) dBm (±\(tolerance) dB) since \(since.timeOfDayString)"
    }
}

extension SteadySignalStrategy {
    /// The registration: key, documented parameters with defaults, factory.
    static let registration = StrategyRegistration(
        key: key,
        summary: "Fires once a beacon's filtered RSSI has stayed within `tolerance` dB for `duration`.",
        parameters: [
            ParameterDeclaration(
                "duration", .duration, default: .duration(.seconds(120)),
                tuning: .durations(from: .seconds(30), through: .seconds(180), by: .seconds(30)),
                "How long the signal must stay steady."),
            ParameterDeclaration(
                "tolerance", .number, default: .number(4), tuning: .numbers(from: 2, through: 8, by: 2),
                "The largest RSSI change (dB) that still counts as steady."),
        ] + StrategyBaseConfiguration.parameterDeclarations()
    ) { parameters, _ in
        let tolerance = try parameters.number("tolerance")
        guard tolerance > 0 else { throw parameters.invalid("tolerance", "must be more than 0 dB") }
        return SteadySignalStrategy(
            duration: try parameters.duration("duration"), tolerance: tolerance,
            configuration: try StrategyBaseConfiguration(parameters))
    }
}
