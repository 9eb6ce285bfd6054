import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import FoundationEssentials
import Testing

@Suite("StrategyRegistry: strategies from configuration")
struct StrategyRegistryTests {
    let registry = StrategyRegistry.builtIn()

    @Test("the built-in keys")
    func keys() {
        #expect(
            registry.keys == [
                "all-of", "any-of", "area", "cooldown", "enter", "exit", "moved", "proximity", "region", "rssi", "time",
            ])
    }

    @Test("typed parameters reach the strategy")
    func typedParameters() throws {
        let strategy = try registry.makeStrategy(
            key: "time",
            parameters: [
                "dwell": "2m", "gap": "500ms", "proximity": "near", "maxTimeBeforeReset": "10m",
                "resetWhenConditionInvalid": true,
            ])
        let time = try #require(strategy as? TimeAlertStrategy)
        #expect(time.options.dwell == .seconds(120))
        #expect(time.options.gap == .milliseconds(500))
        #expect(time.options.minimumProximity == .near)
        #expect(
            time.configuration
                == StrategyBaseConfiguration(
                    maxTimeBeforeReset: .seconds(600),
                    resetWhenConditionInvalid: true))
    }

    @Test("defaults fill in what configuration leaves out")
    func defaults() throws {
        let time = try #require(try registry.makeStrategy(key: "time") as? TimeAlertStrategy)
        #expect(time.options == TimeAlertStrategy.Configuration(dwell: .seconds(60), gap: .seconds(3)))
        let enter = try #require(try registry.makeStrategy(key: "enter") as? EnterAlertStrategy)
        #expect(enter.configuration.resetWhenConditionInvalid)
        let rssi = try #require(
            try registry.makeStrategy(key: "rssi", parameters: ["threshold": -65]) as? RSSIThresholdAlertStrategy)
        #expect(rssi.options.threshold == -65)
        #expect(rssi.options.cycles == 3)
    }

    @Test("a nested configuration mapping builds compositions and wrappers")
    func nested() throws {
        let table: [String: StrategyValue] = [
            "strategy": "cooldown", "period": "10m",
            "of": [
                [
                    "strategy": "all-of",
                    "of": [
                        ["strategy": "time", "dwell": "30s"],
                        ["strategy": "proximity", "proximity": "immediate"],
                    ],
                ]
            ],
        ]
        let cooldown = try #require(try registry.makeStrategy(table: table) as? CooldownAlertStrategy)
        #expect(cooldown.period == .seconds(600))
        let allOf = try #require(cooldown.inner as? CompositeAlertStrategy)
        #expect(allOf.mode == .allOf)
        #expect(allOf.children.map(\.key) == ["time", "proximity"])
        #expect((allOf.children[1] as? ProximityAlertStrategy)?.options.proximity == .immediate)
    }

    static let allKeys = "all-of, any-of, area, cooldown, enter, exit, moved, proximity, region, rssi, time"
    static let timeParameters =
        "dwell, gap, proximity, room, unknownGrace, maxTimeBeforeReset, resetWhenConditionInvalid, retention"
    static let durationExpectation = "a duration: a number and a unit — ms, s, m, h or d (500ms, 3s, 1.5s, 10m, 2h, 1d)"

    /// (configuration mapping, exact error message): each message names the key, the parameter
    /// and the valid choices.
    static let errorCases: [([String: StrategyValue], String)] = [
        (["strategy": "dwell"], "unknown strategy \"dwell\"; valid strategies: \(allKeys)"),
        (
            ["strategy": "time", "dwel": "3s"],
            "strategy \"time\": unknown parameter \"dwel\"; valid parameters: \(timeParameters)"
        ),
        (
            ["strategy": "time", "dwell": 60],
            "strategy \"time\": parameter \"dwell\" is whole number 60; expected \(durationExpectation)"
        ),
        (
            ["strategy": "time", "dwell": "1.5 minutes"],
            "strategy \"time\": parameter \"dwell\" is text 1.5 minutes; expected \(durationExpectation)"
        ),
        (
            ["strategy": "time", "proximity": "close"],
            "strategy \"time\": parameter \"proximity\" is text close; expected a proximity: immediate, near or far"
        ),
        (
            ["strategy": "time", "dwell": "0s"],
            "strategy \"time\": parameter \"dwell\" = 0s is invalid: must be longer than 0s"
        ),
        (
            ["strategy": "proximity", "cycles": 0],
            "strategy \"proximity\": parameter \"cycles\" = 0 is invalid: must be at least 1"
        ),
        (
            ["strategy": "rssi", "threshold": "loud"],
            "strategy \"rssi\": parameter \"threshold\" is text loud; expected a number"
        ),
        (
            ["strategy": "exit", "resetWhenConditionInvalid": "yes"],
            "strategy \"exit\": parameter \"resetWhenConditionInvalid\" is text yes; expected true or false"
        ),
        (["strategy": "all-of"], "strategy \"all-of\": parameter \"of\" is required"),
        (
            ["strategy": "any-of", "of": []],
            "strategy \"any-of\": parameter \"of\" = [] is invalid: name at least one strategy"
        ),
        (
            ["strategy": "all-of", "of": [["dwell": "3s"]]],
            "strategy \"all-of\": parameter \"of\"[0]: {dwell: 3s} has no `strategy` entry naming the strategy key"
        ),
        (
            ["strategy": "all-of", "of": [["strategy": "time", "gap": "soon"]]],
            "strategy \"time\": parameter \"gap\" is text soon; expected \(durationExpectation)"
        ),
        (
            ["strategy": "cooldown", "period": "1m", "of": [["strategy": "enter"], ["strategy": "exit"]]],
            "strategy \"cooldown\": parameter \"of\" = [enter, exit] is invalid: name exactly one strategy"
        ),
        (["dwell": "3s"], "strategy: {dwell: 3s} has no `strategy` entry naming the strategy key"),
    ]

    @Test("configuration errors name the key, the parameter and the valid choices", arguments: errorCases)
    func configurationError(table: [String: StrategyValue], message: String) {
        #expect {
            _ = try registry.makeStrategy(table: table)
        } throws: { error in
            "\(error)" == message
        }
    }

    @Test("a key can be registered once")
    func duplicate() {
        var registry = registry
        #expect(throws: StrategyConfigurationError.duplicateKey("time")) {
            try registry.register(BuiltInStrategies.time)
        }
        #expect(
            "\(StrategyConfigurationError.duplicateKey("time"))"
                == "strategy key \"time\" is registered twice; choose another key for one of them")
    }

    @Test("the text listing shows every key with its parameters, types, defaults and tuning values")
    func listingText() {
        let text = registry.listingText()
        for key in registry.keys { #expect(text.contains("\n\(key) — ") || text.hasPrefix("\(key) — ")) }
        #expect(text.contains("    dwell (duration, default 1m): How long a visit must last before the alert."))
        #expect(text.contains("    gap (duration, default 3s): "))
        #expect(text.contains("        tune over: 1s, 2s, 3s, 5s, 8s, 10s, 15s, 20s, 30s\n"), "gap's declared tuning values")
        #expect(text.contains("    proximity (proximity, optional): "))
        #expect(text.contains("    period (duration, required): "))
    }

    @Test("the JSON listing decodes back to the registrations")
    func listingJSON() throws {
        let json = try registry.listingJSON()
        let listings = try JSONDecoder().decode([StrategyRegistry.Listing].self, from: Data(json.utf8))
        #expect(listings.map(\.key) == registry.keys)
        let time = try #require(listings.first { $0.key == "time" })
        let dwell = try #require(time.parameters.first { $0.name == "dwell" })
        #expect(dwell.type == "duration")
        #expect(dwell.default == "1m")
        #expect(dwell.required == false)
        #expect(dwell.tuning?.first == "15s" && dwell.tuning?.last == "5m" && dwell.tuning?.count == 20)
        #expect(time.parameters.first { $0.name == "room" }?.tuning == nil, "a room is not tuned")
    }
}
