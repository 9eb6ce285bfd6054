import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("ProximityBands")
struct ProximityBandsTests {
    @Test(
        "plain thresholds from unknown: immediate < 0.5 m, near < 3 m",
        arguments: [
            (0.3, Proximity.immediate), (0.5, .near), (2.9, .near), (3.0, .far), (12, .far),
        ])
    func firstBand(distance: Double, expected: Proximity) {
        #expect(ProximityBands().proximity(distance: distance, current: .unknown) == expected)
    }

    @Test("a beacon oscillating around 0.5 m and 3 m does not flap (10 % margins)")
    func hysteresis() {
        let bands = ProximityBands()
        var state = Proximity.unknown
        var seen: [Proximity] = []
        // Enter near at 0.6; wobble 0.46…0.54 (inside ±10 %); cross 0.44 → immediate; wobble; leave at 0.56 → near.
        for d in [0.6, 0.46, 0.54, 0.47, 0.44, 0.52, 0.49, 0.54, 0.56, 2.8, 3.2, 2.75, 3.31, 2.8, 2.69] {
            state = bands.proximity(distance: d, current: state)
            seen.append(state)
        }
        #expect(
            seen == [
                .near, .near, .near, .near, .immediate, .immediate, .immediate, .immediate, .near,
                .near, .near, .near, .far, .far, .near,
            ])
    }

    @Test("no distance is unknown")
    func unknown() { #expect(ProximityBands().proximity(distance: nil, current: .near) == .unknown) }
}
