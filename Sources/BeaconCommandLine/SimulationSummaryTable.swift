import BeaconCore
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconSite
import Foundation

/// The summary `beacond simulate` prints on stderr after a run: one aligned row per figure.
enum SimulationSummaryTable {
    static func site(
        _ summary: SiteSimulation.Summary, scenario: Scenario, wall: Duration, calibration: CalibrationStatus? = nil
    ) -> String {
        let fusion = summary.hub.site ?? SiteFusionStatistics()
        var rows: [(String, String)] = [
            ("scenario", "\(scenario.name) (a site: \(scenario.gateways.count) gateways, \(scenario.rooms.count) rooms)"),
            ("virtual time", summary.virtualDuration.humanReadable),
            ("advertisements sent", "\(summary.simulation.advertisements)"),
            ("reports received", "\(summary.simulation.reports) (all gateways)"),
            ("gateway records fused", "\(fusion.records)"),
            ("hub cycles", "\(fusion.cycles)"),
            ("room changes", "\(fusion.roomChanges)"),
            ("positions", "\(fusion.tracked) tracked, \(fusion.multilaterations) multilaterated, \(fusion.centroids) centroids"),
        ]
        if let calibration { rows.append(("calibration", calibration.summary)) }
        let events = summary.hub.eventsByAlert.sorted { $0.key < $1.key }
        rows += events.isEmpty ? [("alert events", "none")] : events.map { ("alerts \($0.key)", "\($0.value)") }
        let seconds = max(wall.secondsValue, 1e-6)
        rows += [
            ("wall time", "\(Double(Int(seconds * 1000)) / 1000) s"),
            ("speed-up over real time", "\(Int(summary.virtualDuration.secondsValue / seconds))×"),
        ]
        return aligned(rows)
    }

    private static func aligned(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
            .joined(separator: "\n")
    }

    static func gateway(_ summary: SimulationRun.Summary, scenario: Scenario, wall: Duration) -> String {
        let virtual = summary.virtualDuration.secondsValue
        let seconds = max(wall.secondsValue, 1e-6)
        var rows: [(String, String)] = [
            ("scenario", scenario.name),
            ("virtual time", summary.virtualDuration.humanReadable),
            ("advertisements sent", "\(summary.simulation.advertisements)"),
            ("reports received", "\(summary.simulation.reports)"),
            ("beacon sightings", "\(summary.pipeline.sightings)"),
            ("beacons tracked at end", "\(summary.trackedBeacons)"),
            ("ranging cycles", "\(summary.pipeline.cycles)"),
        ]
        let events = summary.pipeline.eventsByAlert.sorted { $0.key < $1.key }
        rows += events.isEmpty ? [("alert events", "none")] : events.map { ("alerts \($0.key)", "\($0.value)") }
        rows += [
            ("wall time", "\(Double(Int(seconds * 1000)) / 1000) s"),
            ("reports/s (wall)", "\(Int(Double(summary.simulation.reports) / seconds))"),
            ("speed-up over real time", "\(Int(virtual / seconds))×"),
        ]
        return aligned(rows)
    }
}
