import BeaconCore
import BeaconStrategyKit
import BeaconStrategyTestSupport
import FoundationEssentials
import Testing

/// The two implementations of the article "Writing your own strategy" follow the dwell
/// specification exactly like the stock TimeAlertStrategy (same hand-derived table).
@Suite("The article's dwell strategies: protocol and base class")
struct TimeAlertStrategyExamplesTests {
    @Test("implementing the protocol directly", arguments: TimeAlertStrategyTests.scenarios)
    func firstWay(_ scenario: Scenario) {
        let strategy = TimeAlertStrategyFirstWay(dwell: .seconds(10), gap: .seconds(3), maxTimeBeforeReset: .seconds(20))
        #expect(fireSeconds(of: strategy, scenario.script) == scenario.expectedFires)
    }

    @Test("subclassing the base class", arguments: TimeAlertStrategyTests.scenarios)
    func secondWay(_ scenario: Scenario) {
        let strategy = TimeAlertStrategySecondWay(maxTimeBeforeReset: .seconds(20), delayBeforeCreatingAlert: .seconds(10))
        #expect(fireSeconds(of: strategy, scenario.script) == scenario.expectedFires)
    }

    @Test("the first way forgets beacons gone for longer than the reset time")
    func firstWayForgets() {
        let strategy = TimeAlertStrategyFirstWay(dwell: .seconds(10), gap: .seconds(3), maxTimeBeforeReset: .seconds(20))
        _ = fireSeconds(of: strategy, [Segment(0...0, .near), Segment(1...20, .absent)])
        #expect(strategy.parameter(for: .scripted) != nil)
        _ = fireSeconds(of: strategy, [Segment(21...21, .absent)])
        #expect(strategy.parameter(for: .scripted) == nil)
    }

    @Test("registered like a stock strategy")
    func registered() throws {
        var registry = StrategyRegistry()
        try registry.register(TimeAlertStrategySecondWay.registration)
        let strategy = try registry.makeStrategy(
            key: "timeAlertStrategy", parameters: ["delay": "10s", "maxTimeBeforeReset": "20s"])
        #expect(fireSeconds(of: strategy, [Segment(0...12, .near)]) == [10])
        // The article's snippet: 60 s by default.
        #expect(fireSeconds(of: try makeTimeAlertStrategyFromConfiguration(), [Segment(0...61, .near)]) == [60])
    }

    @Test("the second way says where a beacon stands: its progress and its own words")
    func secondWayExplains() throws {
        let strategy = TimeAlertStrategySecondWay(maxTimeBeforeReset: .seconds(20), delayBeforeCreatingAlert: .seconds(10))
        #expect(strategy.status(of: .scripted, now: .epoch) == nil, "not remembered before the first sighting")
        _ = fireSeconds(of: strategy, [Segment(0...4, .near)])
        let lastSeen = try #require(strategy.parameter(for: .scripted)).lastSeen // the script's fourth second
        let status = strategy.status(of: .scripted, now: lastSeen)
        #expect(status?.explanation == "detected; the alert is due at \((lastSeen + .seconds(6)).timeOfDayString)")
        #expect(status?.progress == StrategyProgress(value: 4, threshold: 10, unit: "s"))
    }

    @Test("every code block of the article is real, compiled code")
    func articleMatchesCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent(
                "../../Sources/BeaconStrategyKit/BeaconStrategyKit.docc/WritingYourOwnStrategy.md"), encoding: .utf8)
        var sources = ""
        for name in ["TimeAlertStrategyFirstWay.swift", "TimeAlertStrategySecondWay.swift"] {
            sources += try String(contentsOf: root.appendingPathComponent("ArticleExamples/\(name)"), encoding: .utf8)
        }
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map {
            String($0.components(separatedBy: "\n```")[0])
        }
        #expect(blocks.count >= 8)
        for block in blocks {
            #expect(sources.contains(block), "article block not found verbatim in ArticleExamples:\n\(block)")
        }
    }
}
