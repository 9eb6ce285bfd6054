import BeaconCore
import BeaconStrategyKit

/// The registrations of the stock strategies: their keys, parameters with defaults, and factories.
public enum BuiltInStrategies {
    private typealias Base = StrategyBaseConfiguration

    /// Every stock registration.
    public static var all: [StrategyRegistration] {
        [time, proximity, enter, exit, rssi, region, composite(.allOf), composite(.anyOf), cooldown]
    }

    /// `time`: dwell time (``TimeAlertStrategy``).
    public static let time = StrategyRegistration(
        key: TimeAlertStrategy.key,
        summary: "Fires once a beacon has been present continuously for `dwell`.",
        parameters: [
            ParameterDeclaration(
                "dwell", .duration, default: .duration(.seconds(60)),
                "How long a visit must last before the alert."),
            ParameterDeclaration(
                "gap", .duration, default: .duration(.seconds(3)),
                "An absence longer than this starts a new visit."),
            ParameterDeclaration(
                "proximity", .proximity,
                "When set, only cycles at least this close count as present."),
        ] + Base.parameterDeclarations()
    ) { parameters, _ in
        let options = TimeAlertStrategy.Configuration(
            dwell: try positive(parameters, "dwell"), gap: try parameters.duration("gap"),
            minimumProximity: try parameters.proximity("proximity"), base: try Base(parameters))
        return TimeAlertStrategy(options)
    }

    /// `proximity`: at or closer than a band for N cycles (``ProximityAlertStrategy``).
    public static let proximity = StrategyRegistration(
        key: ProximityAlertStrategy.key,
        summary: "Fires once a beacon has been at or closer than `proximity` for `cycles` consecutive cycles.",
        parameters: [
            ParameterDeclaration("proximity", .proximity, default: .proximity(.near), "The farthest band that counts."),
            ParameterDeclaration("cycles", .integer, default: .integer(1), "Consecutive cycles required."),
        ] + Base.parameterDeclarations()
    ) { parameters, _ in
        ProximityAlertStrategy(
            .init(
                proximity: try parameters.proximity("proximity") ?? .near,
                cycles: try atLeastOne(parameters, "cycles"), base: try Base(parameters)))
    }

    /// `enter`: first sighting after an absence (``EnterAlertStrategy``).
    public static let enter = StrategyRegistration(
        key: EnterAlertStrategy.key,
        summary: "Fires at the first sighting of a beacon after it was unseen for `absence`.",
        parameters: [
            ParameterDeclaration(
                "absence", .duration, default: .duration(.seconds(30)),
                "The absence that makes the next sighting an arrival.")
        ] + Base.parameterDeclarations(defaults: .init(resetWhenConditionInvalid: true))
    ) { parameters, _ in
        EnterAlertStrategy(.init(absence: try positive(parameters, "absence"), base: try Base(parameters)))
    }

    /// `exit`: unseen for a while (``ExitAlertStrategy``).
    public static let exit = StrategyRegistration(
        key: ExitAlertStrategy.key,
        summary: "Fires once a beacon has been unseen for `away` (once per absence).",
        parameters: [
            ParameterDeclaration(
                "away", .duration, default: .duration(.seconds(30)),
                "How long unseen before the beacon counts as gone.")
        ] + Base.parameterDeclarations(defaults: .init(resetWhenConditionInvalid: true))
    ) { parameters, _ in
        ExitAlertStrategy(.init(away: try positive(parameters, "away"), base: try Base(parameters)))
    }

    /// `region`: a beacon entered or left a configured region (``RegionAlertStrategy``).
    public static let region = StrategyRegistration(
        key: RegionAlertStrategy.key,
        summary: "Fires when a beacon enters (or, with `on: exit`, leaves) the ranging region `region`.",
        parameters: [
            ParameterDeclaration("region", .string, required: true, "The id of a region under ranging.regions."),
            ParameterDeclaration("on", .string, default: .string("enter"), "enter or exit."),
        ]
    ) { parameters, _ in
        let on = try parameters.string("on")
        guard let kind = RegionEvent.Kind(rawValue: on) else {
            throw parameters.invalid("on", "must be enter or exit, not \(on)")
        }
        return RegionAlertStrategy(region: try parameters.string("region"), on: kind)
    }

    /// `rssi`: filtered RSSI above a threshold for N cycles (``RSSIThresholdAlertStrategy``).
    public static let rssi = StrategyRegistration(
        key: RSSIThresholdAlertStrategy.key,
        summary: "Fires once a beacon's filtered RSSI has been at least `threshold` dBm for `cycles` consecutive cycles.",
        parameters: [
            ParameterDeclaration("threshold", .number, default: .number(-70), "The weakest filtered RSSI that counts (dBm)."),
            ParameterDeclaration("cycles", .integer, default: .integer(3), "Consecutive cycles required."),
        ] + Base.parameterDeclarations()
    ) { parameters, _ in
        RSSIThresholdAlertStrategy(
            .init(
                threshold: try parameters.number("threshold"),
                cycles: try atLeastOne(parameters, "cycles"), base: try Base(parameters)))
    }

    /// `all-of` / `any-of`: composition (``CompositeAlertStrategy``).
    public static func composite(_ mode: CompositeAlertStrategy.Mode) -> StrategyRegistration {
        StrategyRegistration(
            key: mode.rawValue,
            summary: mode == .allOf
                ? "Fires when every strategy of `of` has its condition valid at the same cycle."
                : "Fires when at least one strategy of `of` has its condition valid.",
            parameters: [
                ParameterDeclaration(
                    "of", .strategies, required: true,
                    "The combined strategies: a list of mappings `{strategy: KEY, …}`.")
            ] + Base.parameterDeclarations()
        ) { parameters, registry in
            let specs = try parameters.strategies("of")
            guard !specs.isEmpty else { throw parameters.invalid("of", "name at least one strategy") }
            let children = try specs.map { spec throws(StrategyConfigurationError) in try registry.makeStrategy(spec) }
            return CompositeAlertStrategy(mode, of: children, base: try Base(parameters))
        }
    }

    /// `cooldown`: no new alert for a beacon within a period (``CooldownAlertStrategy``).
    public static let cooldown = StrategyRegistration(
        key: CooldownAlertStrategy.key,
        summary: "Wraps one strategy: drops its alerts for a beacon within `period` of the previous one.",
        parameters: [
            ParameterDeclaration("period", .duration, required: true, "The quiet period after an alert."),
            ParameterDeclaration(
                "of", .strategies, required: true,
                "The wrapped strategy: a list of exactly one mapping `{strategy: KEY, …}`."),
        ]
    ) { parameters, registry in
        let specs = try parameters.strategies("of")
        guard specs.count == 1 else { throw parameters.invalid("of", "name exactly one strategy") }
        return CooldownAlertStrategy(try registry.makeStrategy(specs[0]), period: try positive(parameters, "period"))
    }

    private static func positive(_ parameters: ResolvedParameters, _ name: String) throws(StrategyConfigurationError) -> Duration
    {
        let value = try parameters.duration(name)
        guard value > .zero else { throw parameters.invalid(name, "must be longer than 0s") }
        return value
    }

    private static func atLeastOne(_ parameters: ResolvedParameters, _ name: String) throws(StrategyConfigurationError) -> Int {
        let value = try parameters.integer(name)
        guard value >= 1 else { throw parameters.invalid(name, "must be at least 1") }
        return value
    }
}
