import Testing

@testable import BeaconCore

@Suite("ScanTiming")
struct ScanTimingTests {
    @Test("times are kept in 0.625 ms units; the duty cycle is window / interval")
    func units() throws {
        let timing = try ScanTiming(interval: .milliseconds(100), window: .milliseconds(25))
        #expect((timing.intervalUnits, timing.windowUnits) == (160, 40))
        #expect(timing.interval == .milliseconds(100))
        #expect(timing.dutyCycle == 0.25)
        #expect(ScanTiming.continuous.dutyCycle == 1)
    }

    @Test(
        "what a controller refuses is refused, saying the range",
        arguments: [(Duration.milliseconds(20_000), Duration.milliseconds(100)), (.milliseconds(100), .milliseconds(1))])
    func refused(interval: Duration, window: Duration) {
        #expect {
            try ScanTiming(interval: interval, window: window)
        } throws: { error in
            (error as? ScanTimingError)?.description.contains("2.5 ms … 10240 ms") == true
        }
    }

    @Test("a window longer than the interval is refused")
    func windowTooLong() {
        #expect(throws: ScanTimingError.self) { try ScanTiming(interval: .milliseconds(10), window: .milliseconds(20)) }
    }
}
