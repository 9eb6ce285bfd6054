import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconPipeline
import BeaconStrategies
import Testing

/// The contract table of Docs/Strategies.md, row by row: strategy × break between two visits
/// (shorter or longer than the reset) × firing mode × cooldown. Each row runs the pipeline on
/// sightings and compares the delivered times with those the documented rules give:
///
/// 1. *When a strategy activates* (fires) — the strategy column of the table, written out by
///    hand below for each strategy and timeline (cycle ends, in seconds).
/// 2. *What the engine delivers of those activations* — the firing mode and cooldown columns,
///    applied by ``expectedDeliveries(_:)``.
@Suite("Strategy contract table: strategy × reset × firing mode × cooldown")
struct StrategyContractTableTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var strategy: String
        var parameters: String
        var longBreak: Bool
        var firing: String
        var cooldown: Int?
        /// When the strategy activates (documented behaviour, by hand).
        var activations: [Double]

        var testDescription: String {
            "\(strategy) \(longBreak ? "100 s break" : "15 s break") \(firing) cooldown \(cooldown.map { "\($0)s" } ?? "none")"
        }

        /// The engine's rules (Docs/AlertEngine.md, "Which firings count" and "Cooldown"), all
        /// deliveries immediate: `every-activation` delivers each activation unless it falls within
        /// `cooldown` of the previous delivery; `once-per-beacon` and `first` deliver the first only.
        var expectedDeliveries: [Double] {
            switch firing {
            case "every-activation":
                var delivered: [Double] = []
                for time in activations {
                    if let last = delivered.last, let cooldown, time < last + Double(cooldown) { continue }
                    delivered.append(time)
                }
                return delivered
            default:
                return Array(activations.prefix(1))
            }
        }
    }

    /// Two visits: 0–40 s and, after a 15 s or a 100 s break, 55–95 s or 140–180 s. The breaks
    /// are longer than the time strategy's gap (3 s) and the exit strategy's away time (10 s);
    /// the short one is shorter than the reset (30 s) and the enter strategy's absence (20 s).
    static let strategies: [(name: String, parameters: String, short: [Double], long: [Double])] = [
        // Visit 1 starts at 1 s, lasts 10 s at 11 s. The short break does not reset (15 s < 30 s);
        // the long one does, and visit 2 (from 141 s) reaches 10 s at 151 s.
        ("time", "{dwell: 10s, gap: 3s, maxTimeBeforeReset: 30s}", [11], [11, 151]),
        // The visit ends with any break longer than the gap: the condition stops holding, which resets.
        ("time", "{dwell: 10s, gap: 3s, resetWhenConditionInvalid: true, maxTimeBeforeReset: 1h}", [11, 66], [11, 151]),
        // An arrival after 20 s unseen; the first sighting ever counts as one.
        ("enter", "{absence: 20s, maxTimeBeforeReset: 30s}", [1], [1, 141]),
        // A departure 10 s after the last present cycle (40 s; then 95 s or 180 s).
        ("exit", "{away: 10s}", [50, 105], [50, 190]),
    ]

    static let rows: [Row] = strategies.flatMap { strategy in
        [false, true].flatMap { longBreak in
            ["every-activation", "once-per-beacon", "first"].flatMap { firing in
                [nil, 60, 600].map { cooldown in
                    Row(
                        strategy: strategy.name, parameters: strategy.parameters, longBreak: longBreak, firing: firing,
                        cooldown: cooldown, activations: longBreak ? strategy.long : strategy.short)
                }
            }
        }
    }

    @Test("each row delivers what the documented contract says", arguments: rows)
    func row(_ row: Row) throws {
        let cooldown = row.cooldown.map { "\n    cooldown: \($0)s" } ?? ""
        let yaml = """
            alerts:
              - id: contract
                strategy: \(row.strategy)
                parameters: \(row.parameters)
                firing: \(row.firing)\(cooldown)

            """
        let pipeline = try AlertPipeline(configuration: GatewayConfiguration(node: ConfigNode(yaml: yaml)), registry: .builtIn())
        let timeline = Timeline(present: row.longBreak ? [(0, 40), (140, 180)] : [(0, 40), (55, 95)])
        let events = try StrategyContractTests.feed(pipeline, timeline.sightings, until: 400)
        #expect(StrategyContractTests.delivered(events) == row.expectedDeliveries)
    }
}
