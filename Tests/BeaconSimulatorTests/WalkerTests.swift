import BeaconCore
import BeaconSimulator
import Testing

@Suite("Walker kinematics")
struct WalkerTests {
    // The lobby's first visitor: (6,0,1) → 1.2 m/s → (1,0,1), 90 s there, → (6,0,1), leaves.
    // Walking 5 m takes 5/1.2 = 4.1667 s; the dwell ends at 94.1667 s, the walk back at 98.3333 s.
    let visitor = Walker(
        name: "v",
        waypoints: [
            .init(Vector3(6, 0, 1)), .init(Vector3(1, 0, 1), dwell: .seconds(90)), .init(Vector3(6, 0, 1)),
        ], speed: 1.2)

    @Test(
        "position at hand-computed times",
        arguments: [
            (0.0, 6.0), (2.0, 3.6), (4.0, 1.2), (50.0, 1.0), (94.0, 1.0), (96.0, 3.2), (98.0, 5.6),
        ])
    func positions(seconds: Double, x: Double) throws {
        let p = try #require(visitor.position(atOffset: .milliseconds(Int64(seconds * 1000))))
        #expect(abs(p.x - x) < 1e-9)
        #expect(p.y == 0 && p.z == 1)
    }

    @Test("a walker that does not repeat leaves after its path")
    func leaves() {
        #expect(visitor.position(atOffset: .seconds(99)) == nil)
        #expect(visitor.timeOnSite == .nanoseconds(98_333_333_333))
    }

    @Test("a walker is absent before its start")
    func absentBeforeStart() throws {
        let late = Walker(
            name: "l", waypoints: [.init(Vector3(-6, 2, 1)), .init(Vector3(6, 2, 1))], speed: 1.2,
            start: .seconds(20))
        #expect(late.position(atOffset: .seconds(19)) == nil)
        #expect(try #require(late.position(atOffset: .seconds(25))).x == 0) // 6 m in 5 s
    }

    @Test(
        "a repeating walker walks back and goes round again",
        arguments: [
            (12.0, 8.0), (15.0, 5.0), (25.0, 5.0), (40.0, 0.0), (1000.0, 0.0),
        ])
    func repeats(seconds: Double, x: Double) throws {
        // (0,0,0) ⇄ (10,0,0) at 1 m/s, no dwell: one round is 20 s.
        let shuttle = Walker(
            name: "s", waypoints: [.init(Vector3(0, 0, 0)), .init(Vector3(10, 0, 0))], speed: 1,
            repeats: true)
        let p = try #require(shuttle.position(atOffset: .milliseconds(Int64(seconds * 1000))))
        #expect(abs(p.x - x) < 1e-9)
        #expect(shuttle.timeOnSite == nil)
    }
}
