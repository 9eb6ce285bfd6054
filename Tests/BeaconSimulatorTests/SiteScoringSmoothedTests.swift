import BeaconCore
import BeaconSimulator
import Foundation
import Testing

/// `SiteScoring` on presence lines with a smoothed position (`smoothed`, the grid filter's
/// fixed-lag smoother): each is scored against the truth at its own time, not the line's.
@Suite("Site scoring: smoothed positions at their own time")
struct SiteScoringSmoothedTests {
    @Test("a smoothed position two seconds late is scored where the tag was then; the line's own position where it is now")
    func ownTime() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smoothed-scoring-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let start = try #require(Timestamp(rfc3339: "2025-01-01T10:00:00Z"))
        func time(_ t: Int) -> String { (start + .seconds(t)).rfc3339String }
        // The tag walks along x at 1 m/s from 0 to 12 s.
        let truth = (0...12).map { #"{"time":"\#(time($0))","x":\#(Double($0)),"y":0,"z":1}"# }
        let beacon = #""beacon":{"uuid":"0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A","major":1,"minor":1}"#
        // Each line (3–12 s) places the tag where it was 2 s earlier — 2 m behind — and its
        // smoothed position, for those 2 s earlier, exactly there but one line 0.9 m off
        // (outside its 0.5 m radius); the last smoothed position speaks for 20 s, past the truth.
        let presence = (3...12).map { t -> String in
            let at = t == 12 ? 20 : t - 2
            let off = t == 5 ? 0.9 : 0
            return #"{"time":"\#(time(t))",\#(beacon),"room":null,"position":{"x":\#(Double(t - 2)),"y":0,"z":1,"radius90":3},"#
                + #""smoothed":{"time":"\#(time(at))","x":\#(Double(t - 2) + off),"y":0,"z":1,"radius90":0.5}}"#
        }
        let truthPath = directory.appendingPathComponent("truth.jsonl").path
        let presencePath = directory.appendingPathComponent("presence.jsonl").path
        try (truth.joined(separator: "\n") + "\n").write(toFile: truthPath, atomically: true, encoding: .utf8)
        try (presence.joined(separator: "\n") + "\n").write(toFile: presencePath, atomically: true, encoding: .utf8)
        let report = try SiteScoring.score(presence: presencePath, truth: truthPath)
        #expect(report.positionErrors.count == 10)
        #expect(abs(try #require(report.medianPositionError) - 2) < 1e-9, "\(report.text)")
        #expect(report.smoothedErrors.count == 9, "the one for 20 s has no truth")
        #expect(try #require(report.medianSmoothedError) < 1e-9, "\(report.text)")
        #expect(abs(try #require(report.p90SmoothedError) - 0.9 * 0.2) < 1e-9, "the 90th percentile of eight 0s and a 0.9")
        #expect(abs(try #require(report.smoothedRadiusCoverage) - 8.0 / 9) < 1e-9)
        #expect(report.smoothedStatedRadius == 9)
        #expect(report.text.contains("smoothed position median   0.00 m"), "\(report.text)")
        // Without smoothed positions, the report says nothing of them.
        let plain = presence.map { $0.replacingOccurrences(of: #","smoothed":\{[^}]*\}"#, with: "", options: .regularExpression) }
        try (plain.joined(separator: "\n") + "\n").write(toFile: presencePath, atomically: true, encoding: .utf8)
        let without = try SiteScoring.score(presence: presencePath, truth: truthPath)
        #expect(without.smoothedErrors.isEmpty && !without.text.contains("smoothed"))
        #expect(without.positionErrors == report.positionErrors)
    }
}
