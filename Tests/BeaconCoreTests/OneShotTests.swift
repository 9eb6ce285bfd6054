import Testing

@testable import BeaconCore

@Suite("OneShot")
struct OneShotTests {
    @Test("waiters before and after the value get it; only the first resume counts")
    func resumeOnce() async {
        let shot = OneShot<Int>()
        let early = Task { await shot.value }
        let second = Task { await shot.value }
        #expect(!shot.isResumed)
        #expect(shot.resume(returning: 1))
        #expect(!shot.resume(returning: 2))
        #expect(await early.value == 1)
        #expect(await second.value == 1)
        #expect(await shot.value == 1)
        #expect(shot.isResumed)
    }

    @Test("a Void one-shot is a signal")
    func signal() async {
        let done = OneShot<Void>()
        let waiter = Task { await done.value }
        done.resume()
        await waiter.value
        #expect(done.isResumed)
    }
}
