import Synchronization
import Testing

@testable import BeaconCore

@Suite("Readiness")
struct ReadinessTests {
    /// The calls of `onReady`, in order.
    final class Calls: Sendable {
        let seen = Mutex<[[String]]>([])
    }

    @Test("ready once, when the last named part is met, whatever the order and however often each is met")
    func lastPartMakesReady() {
        let calls = Calls()
        let readiness = Readiness(parts: ["source", "broker", "election", "broker"]) { parts in
            calls.seen.withLock { $0.append(parts) }
        }
        #expect(readiness.parts == ["source", "broker", "election"])
        #expect(!readiness.met("broker"))
        #expect(!readiness.met("broker")) // a reconnection says it again
        #expect(!readiness.met("unrelated"))
        #expect(readiness.waitingFor == ["source", "election"])
        #expect(!readiness.met("election"))
        #expect(!readiness.isReady)
        #expect(calls.seen.withLock { $0 }.isEmpty)
        #expect(readiness.met("source"))
        #expect(readiness.isReady)
        #expect(readiness.waitingFor.isEmpty)
        #expect(!readiness.met("source"))
        #expect(!readiness.met("broker"))
        #expect(calls.seen.withLock { $0 } == [["source", "broker", "election"]])
    }

    @Test("parts met from many threads at once: onReady runs exactly once")
    func concurrentMet() async {
        let calls = Calls()
        let parts = (0..<64).map { "part \($0)" }
        let readiness = Readiness(parts: parts) { parts in calls.seen.withLock { $0.append(parts) } }
        await withTaskGroup(of: Void.self) { group in
            for part in parts {
                for _ in 0..<4 { group.addTask { readiness.met(part) } }
            }
        }
        #expect(readiness.isReady)
        #expect(calls.seen.withLock { $0.count } == 1)
    }
}
