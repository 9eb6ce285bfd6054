import BeaconCore
import BeaconSite
import BeaconSiteLink
import BeaconSiteReport
import Logging
import Synchronization
import Testing

@testable import BeaconGateway

/// A flood of refused reports gives a readable log: the first of each reason at once, then at
/// most one line per reason and minute that counts what it held back (issue 26, defect 4).
@Suite("ReportRefusalLog")
struct ReportRefusalLogTests {
    /// Keeps every message logged through it.
    struct Capture: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { lines.lines.withLock { $0.append("\(event.level): \(event.message)") } }
    }

    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    @Test("1,000 refusals of one reason in a minute log one line; the next minute's line counts the 999 held back")
    func rateLimited() {
        let captured = Lines()
        let logger = Logger(label: "test") { _ in Capture(lines: captured) }
        let clock = ManualClock(start: Timestamp(secondsSinceEpoch: 1_700_000_000))
        let log = ReportRefusalLog(logger: logger, clock: AnyTimestampClock(clock))
        for i in 0..<1000 {
            log.record(ReportRefusal(.outOfRange, gateway: "west", "RSSI \(i) dBm"))
            clock.advance(by: .milliseconds(50))
        }
        #expect(captured.all.count == 1)
        #expect(captured.all.first?.contains("refused (out_of_range): RSSI 0 dBm") == true)
        // Another reason is not held back by the first.
        log.record(ReportRefusal(.clock, gateway: "east", "a time from the future"))
        #expect(captured.all.count == 2)
        clock.advance(by: .seconds(11))
        log.record(ReportRefusal(.outOfRange, gateway: "west", "RSSI 1000 dBm"))
        #expect(captured.all.count == 3)
        #expect(captured.all.last?.contains("RSSI 1000 dBm (and 999 more for this reason since the last line)") == true)
        #expect(captured.all.allSatisfy { $0.hasPrefix("warning:") })
    }
}
