import BeaconAlertEngine
import BeaconCore
import Testing

/// `AlertHistory` is stored compactly (one per alert and beacon ever fired, twice: in the engine
/// and in its store); its properties read back what was set, and equal histories compare equal
/// however they were reached.
@Suite("Alert history: compact storage")
struct AlertHistoryTests {
    typealias F = EngineFixture

    static let key = AlertKey(alertID: "welcome", beacon: F.beaconA)

    @Test func isStoredIn128Bytes() {
        #expect(MemoryLayout<AlertHistory>.size <= 128)
    }

    @Test func readsBackEveryProperty() {
        let answer = AlertAnswer(kind: .dismissed, instanceDue: F.t0, by: "nurse-2 via http", at: F.t0 + .seconds(5))
        let history = AlertHistory(
            key: Self.key, firstFiringAt: F.t0, lastDeliveredAt: F.t0 + .seconds(1),
            lastDeliveredDue: F.t0 + .seconds(2), deliveries: 3, instanceDue: F.t0 + .seconds(3),
            instanceStrategy: "time", attempts: 4, answer: answer, suppressedUntil: .distantFuture)
        #expect(history.key == Self.key)
        #expect(history.firstFiringAt == F.t0)
        #expect(history.lastDeliveredAt == F.t0 + .seconds(1))
        #expect(history.lastDeliveredDue == F.t0 + .seconds(2))
        #expect(history.deliveries == 3)
        #expect(history.instanceDue == F.t0 + .seconds(3))
        #expect(history.instanceStrategy == "time")
        #expect(history.attempts == 4)
        #expect(history.answer == answer)
        #expect(history.suppressedUntil == .distantFuture)
        #expect(history.isAwaitingAnswer, "the answer is to an earlier instance")
    }

    /// A time at the epoch or at `distantPast` is a time, not "unset".
    @Test(arguments: [Timestamp(nanosecondsSinceEpoch: 0), .distantPast, .distantFuture])
    func keepsEdgeTimes(_ time: Timestamp) {
        var history = AlertHistory(key: Self.key)
        #expect(history.firstFiringAt == nil && history.suppressedUntil == nil)
        history.firstFiringAt = time
        history.suppressedUntil = time
        #expect(history.firstFiringAt == time && history.suppressedUntil == time)
        #expect(history.lastDeliveredAt == nil && history.lastDeliveredDue == nil && history.instanceDue == nil)
    }

    @Test func clearedPropertiesCompareEqualToUnset() {
        var history = AlertHistory(
            key: Self.key, firstFiringAt: F.t0, lastDeliveredAt: F.t0, lastDeliveredDue: F.t0, instanceDue: F.t0,
            answer: AlertAnswer(kind: .acknowledged, instanceDue: F.t0, by: "cli", at: F.t0), suppressedUntil: F.t0)
        #expect(history != AlertHistory(key: Self.key))
        history.firstFiringAt = nil
        history.lastDeliveredAt = nil
        history.lastDeliveredDue = nil
        history.instanceDue = nil
        history.answer = nil
        history.suppressedUntil = nil
        #expect(history == AlertHistory(key: Self.key))
        #expect(history.hashValue == AlertHistory(key: Self.key).hashValue)
    }

    @Test func equalAnswersCompareEqual() {
        let answer = AlertAnswer(kind: .acknowledged, instanceDue: F.t0, by: "cli", at: F.t0)
        let a = AlertHistory(key: Self.key, instanceDue: F.t0, answer: answer)
        let b = AlertHistory(key: Self.key, instanceDue: F.t0, answer: answer)
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(
            a
                != AlertHistory(
                    key: Self.key, instanceDue: F.t0,
                    answer: AlertAnswer(kind: .dismissed, instanceDue: F.t0, by: "cli", at: F.t0)))
    }
}
