import BeaconCore
import BeaconStrategyKit

/// An example plugin strategy: fires once a beacon has been seen in `count` cycles of a visit
/// (not necessarily consecutive); a beacon unseen for `maxTimeBeforeReset` starts over.
final class SightingCountStrategy: BeaconAlertStrategyBase<Int> {
    static let key = "sighting-count"

    static let registration = StrategyRegistration(
        key: key,
        summary: "Example plugin strategy: fires once a beacon has been seen in `count` cycles.",
        parameters: [
            ParameterDeclaration("count", .integer, default: .integer(5), "Cycles with a sighting before the alert.")
        ] + StrategyBaseConfiguration.parameterDeclarations()
    ) { parameters, _ in
        let count = try parameters.integer("count")
        guard count >= 1 else { throw parameters.invalid("count", "must be at least 1") }
        return SightingCountStrategy(count: count, configuration: try StrategyBaseConfiguration(parameters))
    }

    let count: Int

    init(count: Int, configuration: StrategyBaseConfiguration) {
        self.count = count
        super.init(initialValue: 0, configuration: configuration)
    }

    override var key: String { Self.key }

    override func updateAlertParameter(_ sightings: inout Int, beacon: RangedBeacon?, now: Timestamp) {
        if beacon?.seenThisCycle == true { sightings += 1 }
    }

    override func isConditionValid(_ sightings: Int, now: Timestamp) -> Bool { sightings >= count }

    // For explanations and the status page (they cross the plugin boundary through `describe`).
    override func progress(of sightings: Int, now: Timestamp) -> StrategyProgress? {
        StrategyProgress(value: Double(sightings), threshold: Double(count), unit: "sightings")
    }

    override func explanation(of sightings: Int, now: Timestamp) -> String? {
        sightings >= count ? "seen often enough (\(count) cycles)" : "counting the cycles it is seen in"
    }
}
