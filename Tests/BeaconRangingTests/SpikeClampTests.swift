import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("SpikeClamp")
struct SpikeClampTests {
    @Test("limits each step to maxStep dB from the previous clamped sample")
    func clamp() {
        var clamp = SpikeClamp(maxStep: 5)
        #expect([-60.0, -80, -80, -58, -59].map { clamp.clamp($0) } == [-60, -65, -70, -65, -60])
    }

    @Test("works in front of any filter")
    func wrapsFilter() {
        var filter = SpikeClampedFilter(ARMAFilter(configuration: .init(speed: 1)), maxStep: 3)
        filter.add(-60, at: .epoch)
        filter.add(-90, at: .epoch)
        #expect(filter.estimate == -63)
    }
}
