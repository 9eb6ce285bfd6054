import BeaconStrategyKit
import FoundationEssentials
import Testing

@Suite("StrategyValue: plain configuration values")
struct StrategyValueTests {
    @Test(
        "untyped text is read like a YAML scalar",
        arguments: [
            ("true", StrategyValue.boolean(true)), ("false", .boolean(false)), ("60", .integer(60)),
            ("-70.5", .number(-70.5)), ("3s", .string("3s")), ("near", .string("near")),
        ])
    func inference(text: String, expected: StrategyValue) {
        #expect(StrategyValue(inferringFrom: text) == expected)
    }

    @Test("a JSON mapping decodes to the plain values a strategy table needs")
    func decodesJSON() throws {
        let json = #"{"strategy": "all-of", "of": [{"strategy": "time", "dwell": "30s", "cycles": 3, "on": true, "x": 1.5}]}"#
        let decoded = try JSONDecoder().decode([String: StrategyValue].self, from: Data(json.utf8))
        let expected: [String: StrategyValue] = [
            "strategy": "all-of",
            "of": [["strategy": "time", "dwell": "30s", "cycles": 3, "on": true, "x": 1.5]],
        ]
        #expect(decoded == expected)
        let reencoded = try JSONDecoder().decode([String: StrategyValue].self, from: JSONEncoder().encode(decoded))
        #expect(reencoded == expected)
    }
}
