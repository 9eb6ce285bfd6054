import BeaconCore
import BeaconStrategyKit

/// The registrations of the stock strategies: their keys, parameters with defaults, and factories.
public enum BuiltInStrategies {
    private typealias Base = StrategyBaseConfiguration

    /// Every stock registration.
    public static var all: [StrategyRegistration] {
        [time, proximity, enter, exit, rssi, region, moved, area, composite(.allOf), composite(.anyOf), cooldown]
    }

    /// `time`: dwell time (``TimeAlertStrategy``).
    public static let time = StrategyRegistration(
        key: TimeAlertStrategy.key,
        summary: "Fires once a beacon has been present continuously for `dwell`.",
        parameters: [
            ParameterDeclaration(
                "dwell", .duration, default: .duration(.seconds(60)),
                tuning: .durations(from: .seconds(15), through: .seconds(300), by: .seconds(15)),
                "How long a visit must last before the alert."),
            ParameterDeclaration(
                "gap", .duration, default: .duration(.seconds(3)),
                tuning: TuningRange([1, 2, 3, 5, 8, 10, 15, 20, 30].map { .duration(.seconds($0)) }),
                "An absence longer than this starts a new visit."),
            ParameterDeclaration(
                "proximity", .proximity, tuning: .proximities([.immediate, .near, .far]),
                "When set, only cycles at least this close count as present."),
            ParameterDeclaration(
                "room", .string,
                "When set (a site hub), only cycles in which the beacon is in this room count as present."),
            ParameterDeclaration(
                "unknownGrace", .duration, default: .duration(.zero),
                "With room: how long the hub may say the room is unknown and the visit still go on (0: unknown ends it)."),
        ] + Base.parameterDeclarations()
    ) { parameters, _ in
        let options = TimeAlertStrategy.Configuration(
            dwell: try positive(parameters, "dwell"), gap: try parameters.duration("gap"),
            minimumProximity: try parameters.proximity("proximity"), room: try optionalString(parameters, "room"),
            unknownGrace: try parameters.duration("unknownGrace"), base: try Base(parameters))
        return TimeAlertStrategy(options)
    }

    /// `proximity`: at or closer than a band for N cycles (``ProximityAlertStrategy``).
    public static let proximity = StrategyRegistration(
        key: ProximityAlertStrategy.key,
        summary: "Fires once a beacon has been at or closer than `proximity` for `cycles` consecutive cycles.",
        parameters: [
            ParameterDeclaration(
                "proximity", .proximity, default: .proximity(.near), tuning: .proximities([.immediate, .near, .far]),
                "The farthest band that counts."),
            ParameterDeclaration(
                "cycles", .integer, default: .integer(1), tuning: .integers(from: 1, through: 10),
                "Consecutive cycles required."),
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
                tuning: .durations(from: .seconds(10), through: .seconds(180), by: .seconds(10)),
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
                tuning: .durations(from: .seconds(5), through: .seconds(120), by: .seconds(5)),
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

    /// `moved`: a site hub moved a beacon from one room to another (``RoomChangeAlertStrategy``).
    public static let moved = StrategyRegistration(
        key: RoomChangeAlertStrategy.key,
        summary: "Fires when a site hub moves a beacon from room `from` to room `to` (either may be left out: any room).",
        parameters: [
            ParameterDeclaration("from", .string, "The room left; any room when not set."),
            ParameterDeclaration("to", .string, "The room entered; any other room when not set."),
            ParameterDeclaration(
                "within", .duration, default: .duration(.seconds(60)),
                "The longest time between the last cycle in `from` and the first in `to`."),
        ] + Base.parameterDeclarations(defaults: .init(resetWhenConditionInvalid: true))
    ) { parameters, _ in
        let from = try optionalString(parameters, "from")
        let to = try optionalString(parameters, "to")
        if let from, from == to { throw parameters.invalid("to", "names the same room as from") }
        return RoomChangeAlertStrategy(
            .init(from: from, to: to, within: try positive(parameters, "within"), base: try Base(parameters)))
    }

    /// `area`: a site hub places a beacon within a circle or a rectangle of the floor plan (``AreaAlertStrategy``).
    public static let area = StrategyRegistration(
        key: AreaAlertStrategy.key,
        summary:
            "Fires once a site hub has placed a beacon within `radius` m of (`x`, `y`), or within the rectangle"
            + " `xMin`…`xMax` × `yMin`…`yMax`, for `cycles` consecutive cycles.",
        parameters: [
            ParameterDeclaration("x", .number, "The circle's centre, x (metres, site frame)."),
            ParameterDeclaration("y", .number, "The circle's centre, y."),
            ParameterDeclaration("radius", .number, "The circle's radius, metres."),
            ParameterDeclaration("xMin", .number, "The rectangle's west edge."),
            ParameterDeclaration("xMax", .number, "The rectangle's east edge."),
            ParameterDeclaration("yMin", .number, "The rectangle's south edge."),
            ParameterDeclaration("yMax", .number, "The rectangle's north edge."),
            ParameterDeclaration("cycles", .integer, default: .integer(2), "Consecutive cycles inside required."),
            ParameterDeclaration("maxError", .number, "When set, positions less certain than this (metres) do not count."),
        ] + Base.parameterDeclarations(defaults: .init(resetWhenConditionInvalid: true))
    ) { parameters, _ in
        let circle = try ["x", "y", "radius"].map { name throws(StrategyConfigurationError) in
            try optionalNumber(parameters, name)
        }
        let box = try ["xMin", "xMax", "yMin", "yMax"].map { name throws(StrategyConfigurationError) in
            try optionalNumber(parameters, name)
        }
        let shape: AreaAlertStrategy.Shape
        if circle.allSatisfy({ $0 != nil }) && box.allSatisfy({ $0 == nil }) {
            guard circle[2]! > 0 else { throw parameters.invalid("radius", "must be more than 0") }
            shape = .circle(x: circle[0]!, y: circle[1]!, radius: circle[2]!)
        } else if box.allSatisfy({ $0 != nil }) && circle.allSatisfy({ $0 == nil }) {
            guard box[0]! < box[1]!, box[2]! < box[3]! else {
                throw parameters.invalid("xMax", "the rectangle needs xMin < xMax and yMin < yMax")
            }
            shape = .rectangle(xMin: box[0]!, xMax: box[1]!, yMin: box[2]!, yMax: box[3]!)
        } else {
            throw parameters.invalid("x", "give either x, y and radius (a circle) or xMin, xMax, yMin and yMax (a rectangle)")
        }
        return AreaAlertStrategy(
            .init(
                shape: shape, cycles: try atLeastOne(parameters, "cycles"),
                maximumError: try optionalNumber(parameters, "maxError"), base: try Base(parameters)))
    }

    /// `rssi`: filtered RSSI above a threshold for N cycles (``RSSIThresholdAlertStrategy``).
    public static let rssi = StrategyRegistration(
        key: RSSIThresholdAlertStrategy.key,
        summary: "Fires once a beacon's filtered RSSI has been at least `threshold` dBm for `cycles` consecutive cycles.",
        parameters: [
            ParameterDeclaration(
                "threshold", .number, default: .number(-70), tuning: .numbers(from: -90, through: -50, by: 2),
                "The weakest filtered RSSI that counts (dBm)."),
            ParameterDeclaration(
                "cycles", .integer, default: .integer(3), tuning: .integers(from: 1, through: 10),
                "Consecutive cycles required."),
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

    private static func optionalString(_ parameters: ResolvedParameters, _ name: String) throws(StrategyConfigurationError)
        -> String?
    {
        parameters.values[name] == nil ? nil : try parameters.string(name)
    }

    private static func optionalNumber(_ parameters: ResolvedParameters, _ name: String) throws(StrategyConfigurationError)
        -> Double?
    {
        parameters.values[name] == nil ? nil : try parameters.number(name)
    }

    private static func atLeastOne(_ parameters: ResolvedParameters, _ name: String) throws(StrategyConfigurationError) -> Int {
        let value = try parameters.integer(name)
        guard value >= 1 else { throw parameters.invalid(name, "must be at least 1") }
        return value
    }
}
