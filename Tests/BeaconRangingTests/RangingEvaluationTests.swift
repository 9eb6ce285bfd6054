import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("RangingEvaluation")
struct RangingEvaluationTests {
    /// The repository's Data/rssi, found from this file's path.
    static let dataDirectory: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3) // Tests/BeaconRangingTests/RangingEvaluationTests.swift
        return parts.joined(separator: "/") + "/Data/rssi"
    }()

    @Test("reads the real data sets and scores every filter")
    func runsOnRealData() throws {
        let report = try RangingEvaluation(dataDirectory: Self.dataDirectory).run()
        print(report)
        #expect(report.filters.map(\.name) == ["raw (none)"] + RSSIFilterKind.names)
        #expect(report.series.count == 4)
        for score in report.filters {
            #expect(score.errors.count == 4)
            #expect(score.errors.allSatisfy { $0.median != nil && $0.p90 != nil })
            #expect(score.roomSwitches != nil)
            #expect(score.trackLagSeconds != nil)
        }
        // Smoothing must not be worse than the raw samples at the 4.52 m receiver.
        let raw = try #require(report.filters.first?.errors[1].p90)
        let kalman = try #require(report.filters.first { $0.name == "kalman" }?.errors[1].p90)
        #expect(kalman < raw)
        // Smoothing must not make the strongest-scanner rule flap more than raw RSSI does.
        let rawSwitches = try #require(report.filters.first?.roomSwitches)
        let armaSwitches = try #require(report.filters.first { $0.name == "arma" }?.roomSwitches)
        #expect(armaSwitches < rawSwitches)
    }

    @Test("a missing directory is a typed error naming the path")
    func missingData() {
        #expect(
            throws: RangingEvaluationError.unreadable(path: "/nonexistent/philotuxo_stationary_p12.95_16.80_ground_truth.csv")
        ) {
            try RangingEvaluation(dataDirectory: "/nonexistent").run()
        }
    }
}
