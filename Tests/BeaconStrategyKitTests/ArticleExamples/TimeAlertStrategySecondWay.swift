// swift-format-ignore-file
// (The article WritingYourOwnStrategy.md quotes this file verbatim.)
import BeaconCore
import BeaconStrategies
import BeaconStrategyKit

/// What the second way keeps for each beacon, next to the bookkeeping the base class keeps.
struct TimeAlertParameter: Codable {
    /// When the alert is due for the current visit.
    var timeToShowAlert: Timestamp?
    /// The latest cycle the beacon was detected.
    var lastDetectionTime: Timestamp?
    /// Whether the beacon was detected in the latest cycle.
    var detectedNow = false
}

/// The dwell strategy as a subclass of the base class: only the key, the update and the
/// condition.
final class TimeAlertStrategySecondWay: BeaconAlertStrategyBase<TimeAlertParameter> {
    let delayBeforeCreatingAlert: Duration
    let gap: Duration

    init(maxTimeBeforeReset: Duration, delayBeforeCreatingAlert: Duration, gap: Duration = .seconds(3)) {
        self.delayBeforeCreatingAlert = delayBeforeCreatingAlert
        self.gap = gap
        super.init(initialValue: TimeAlertParameter(),
                   configuration: StrategyBaseConfiguration(maxTimeBeforeReset: maxTimeBeforeReset))
    }

    override var key: String { "timeAlertStrategy" }

    override func updateAlertParameter(_ parameter: inout TimeAlertParameter, beacon: RangedBeacon?,
                                       now: Timestamp) {
        parameter.detectedNow = beacon?.seenThisCycle ?? false
        guard parameter.detectedNow else { return }
        // Unseen for longer than the gap: a new visit, whose alert is due after the delay.
        if parameter.lastDetectionTime.map({ now - $0 > gap }) ?? true {
            parameter.timeToShowAlert = now + delayBeforeCreatingAlert
        }
        parameter.lastDetectionTime = now
    }

    override func isConditionValid(_ parameter: TimeAlertParameter, now: Timestamp) -> Bool {
        guard parameter.detectedNow, let due = parameter.timeToShowAlert else { return false }
        return now >= due
    }

    override func quietPeriod(after parameter: TimeAlertParameter, now: Timestamp) -> QuietPeriod? {
        // A gap longer than `gap` starts a new visit: always a step.
        let visitEnds = gap + .nanoseconds(1)
        guard let due = parameter.timeToShowAlert, now < due else {
            // Due (or no visit yet): the condition follows the detection, so a change of it ends the period.
            return QuietPeriod(unseenFor: visitEnds, endsWhenPresent: !parameter.detectedNow,
                               endsWhenNotPresent: parameter.detectedNow)
        }
        return QuietPeriod(until: due, unseenFor: visitEnds)
    }

    override func catchUp(_ parameter: inout TimeAlertParameter, lastPresent: Timestamp?,
                          presentAtLastCycle: Bool) {
        if let lastPresent { parameter.lastDetectionTime = lastPresent }
        parameter.detectedNow = presentAtLastCycle
    }

    override func progress(of parameter: TimeAlertParameter, now: Timestamp) -> StrategyProgress? {
        guard let due = parameter.timeToShowAlert else { return nil }
        return StrategyProgress(elapsed: now - (due - delayBeforeCreatingAlert), of: delayBeforeCreatingAlert)
    }

    override func explanation(of parameter: TimeAlertParameter, now: Timestamp) -> String? {
        guard let due = parameter.timeToShowAlert else { return "not detected yet" }
        return parameter.detectedNow ? "detected; the alert is due at \(due.timeOfDayString)" : "not detected this cycle"
    }
}

extension TimeAlertStrategySecondWay {
    /// How configuration makes it: key, parameters with defaults, factory.
    static let registration = StrategyRegistration(
        key: "timeAlertStrategy",
        summary: "Fires once a beacon has been detected for `delay`.",
        parameters: [
            ParameterDeclaration("delay", .duration, default: .duration(.seconds(60)),
                                 tuning: .durations(from: .seconds(15), through: .seconds(180), by: .seconds(15)),
                                 "How long a visit must last before the alert."),
            ParameterDeclaration("maxTimeBeforeReset", .duration, default: .duration(.seconds(60)),
                                 "How long unseen before the beacon can fire again."),
        ]
    ) { parameters, _ in
        TimeAlertStrategySecondWay(maxTimeBeforeReset: try parameters.duration("maxTimeBeforeReset"),
                                   delayBeforeCreatingAlert: try parameters.duration("delay"))
    }
}

/// Makes the strategy from configuration, next to the stock strategies.
func makeTimeAlertStrategyFromConfiguration() throws -> any BeaconAlertStrategy {
    var registry = StrategyRegistry.builtIn()
    try registry.register(TimeAlertStrategySecondWay.registration)
    return try registry.makeStrategy(key: "timeAlertStrategy", parameters: ["delay": "60s"])
}
