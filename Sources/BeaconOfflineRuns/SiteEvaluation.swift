import BeaconCore
import BeaconDaemonConfiguration
import BeaconSimulator
import BeaconSite
import BeaconSiteReport
import BeaconStrategyKit
import Foundation

/// Scores a site the way a user would judge it: every site recording shipped (a directory with a
/// `site.yaml` and its `truth.jsonl`) and the bundled simulated sites, each with self-calibration
/// on, with the fixed defaults (both through the grid filter, the default) and with positions
/// solved cycle by cycle (`hub.position.grid: off`), and against two plain rules computed from the
/// same gateways' evidence — the strongest gateway's room, and the weighted centroid of the four strongest
/// gateways (weights 1/d, d from the default model). `beacond evaluate-site` prints the table.
public enum SiteEvaluation {
    /// One scored variant of one site.
    public struct Row: Sendable {
        /// The recording or scenario.
        public var site: String
        /// What was run: `self-calibrated`, `fixed defaults`, `as configured` (all three through
        /// the grid filter, the default), `per-cycle fit` (as configured, or self-calibrated, with
        /// `grid: off`), `grid filter, no plan` (as configured, without the scenario's walls and
        /// blocks), `strongest gateway`, `centroid of 4`.
        public var variant: String
        /// The scores.
        public var report: SiteScoring.Report
        /// What self-calibration came to (the calibrated variants only).
        public var calibration: String?
        /// Whether the variant decides rooms, and positions (a plain rule does one of them).
        public var rooms = true
        /// See ``rooms``.
        public var positions = true
    }

    /// Every recording under `directory` (its subdirectories with a `site.yaml` and a `truth.jsonl`),
    /// each scored four ways.
    /// `progress` is told of each run as it starts (`philotuxo: grid filter`).
    public static func recordings(
        in directory: String, registry: StrategyRegistry, progress: ((String) -> Void)? = nil
    ) async throws -> [Row] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        var rows: [Row] = []
        for name in names {
            let folder = directory + "/" + name
            guard FileManager.default.fileExists(atPath: folder + "/site.yaml"),
                FileManager.default.fileExists(atPath: folder + "/truth.jsonl")
            else { continue }
            rows += try await recording(folder, name: name, registry: registry, progress: progress)
        }
        return rows
    }

    /// One recording, scored with self-calibration (prefit), with the fixed defaults, with the
    /// per-cycle fit (`grid: off`, prefit), and by the
    /// two plain rules.
    public static func recording(
        _ folder: String, name: String, registry: StrategyRegistry, progress: ((String) -> Void)? = nil
    ) async throws -> [Row] {
        let document = try SiteReplayDocument.load(path: folder + "/site.yaml")
        var perCycle = document
        perCycle.hub.fusion.positioning.grid = nil
        perCycle.hub.fusion.positioning.gridByDefault = false
        let truth = folder + "/truth.jsonl"
        var rows: [Row] = []
        var fixedLines: [String] = []
        let runs: [(String, SiteReplayDocument, SiteReplay.Calibration)] = [
            ("self-calibrated", document, .prefit), ("fixed defaults", document, .off), ("per-cycle fit", perCycle, .prefit),
        ]
        for (variant, document, mode) in runs {
            progress?("\(name): \(variant)")
            var lines: [String] = []
            let replay = try SiteReplay(
                document: document, alerts: [], registry: registry, presence: { lines.append($0) }, calibration: mode)
            try await replay.run { _ in }
            let report = try score(lines, truth: truth)
            rows.append(
                Row(
                    site: name, variant: variant, report: report,
                    calibration: mode == .off || variant == "per-cycle fit" ? nil : replay.calibrationStatus?.summary))
            if mode == .off { fixedLines = lines }
        }
        rows += try baselines(fixedLines, layout: document.hub.layout, truth: truth, site: name)
        return rows
    }

    /// A simulated site (`scenario` with its hub settings in `alerts`): as configured (its alerts
    /// file's `hub:` values, self-calibrating where they leave it free), and without them,
    /// self-calibrated and fixed, and the plain rules.
    public static func scenario(
        _ path: String, alerts: String?, name: String, registry: StrategyRegistry, progress: ((String) -> Void)? = nil
    ) throws -> [Row] {
        let scenario = try Scenario.load(path: path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("evaluate-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let truth = directory.appendingPathComponent("truth.jsonl").path
        try GroundTruth(scenario: scenario).write(toFile: truth, includeDistances: false)
        var handTuned = try alerts.flatMap { try GatewayConfiguration.load(path: $0).siteFusion }
        if handTuned == SiteFusionConfiguration() { handTuned = nil }
        var fixed = SiteFusionConfiguration()
        fixed.calibration.enabled = false
        var variants: [(String, SiteFusionConfiguration)] = [
            ("self-calibrated", SiteFusionConfiguration()), ("fixed defaults", fixed),
        ]
        if let handTuned { variants.insert(("as configured", handTuned), at: 0) }
        // The positions solved cycle by cycle instead (grid: off), as configured otherwise.
        var perCycle = handTuned ?? SiteFusionConfiguration()
        perCycle.positioning.grid = nil
        perCycle.positioning.gridByDefault = false
        variants.append(("per-cycle fit", perCycle))
        // A scenario with a floor plan: the grid filter also without it, to show what it gives.
        var unplanned = scenario
        unplanned.obstacles = []
        if !scenario.obstacles.isEmpty {
            variants.append(("grid filter, no plan", handTuned ?? SiteFusionConfiguration()))
        }
        var rows: [Row] = []
        for (variant, fusion) in variants {
            progress?("\(name): \(variant)")
            var lines: [String] = []
            let simulation = try SiteSimulation(
                scenario: variant == "grid filter, no plan" ? unplanned : scenario, fusion: fusion, alerts: [],
                registry: registry, presence: { lines.append($0) })
            _ = try simulation.run { _ in }
            rows.append(
                Row(
                    site: name, variant: variant, report: try score(lines, truth: truth),
                    calibration: variant == "per-cycle fit" || variant.hasPrefix("grid filter")
                        ? nil : simulation.calibrationStatus?.summary))
            if variant == "fixed defaults" {
                let layout = try SiteLayout(
                    gateways: scenario.gateways.map {
                        SiteGateway(id: $0.name, room: $0.room, position: $0.position, floor: $0.floor)
                    })
                rows += try baselines(lines, layout: layout, truth: truth, site: name)
            }
        }
        return rows
    }

    /// The table, in Markdown: one row per site and variant.
    public static func table(_ rows: [Row]) -> String {
        func f(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0) } ?? "–" }
        var text = """
            | site | variant | room right while staying | flaps/h | unknown | floor right | position median / p90 | within the 90 % radius | smoothed median / p90 |
            |---|---|---|---|---|---|---|---|---|

            """
        for row in rows {
            let r = row.report
            let position =
                r.medianPositionError == nil || !row.positions
                ? "–" : f(r.medianPositionError, "%.2f") + " / " + f(r.p90PositionError, "%.2f") + " m"
            let rooms =
                row.rooms
                ? "\(f(r.roomAccuracy.map { $0 * 100 }, "%.1f %%")) | \(f(r.flapsPerHour, "%.1f")) | "
                    + "\(f(r.unknownShare.map { $0 * 100 }, "%.1f %%")) | \(f(r.floorAccuracy.map { $0 * 100 }, "%.1f %%"))"
                : "– | – | – | –"
            let smoothed =
                r.medianSmoothedError == nil || !row.positions
                ? "–" : f(r.medianSmoothedError, "%.2f") + " / " + f(r.p90SmoothedError, "%.2f") + " m"
            text +=
                "| \(row.site) | \(row.variant) | \(rooms) | \(position) | "
                + "\(f(r.radiusCoverage.map { $0 * 100 }, "%.0f %%")) | \(smoothed) |\n"
        }
        let notes = rows.compactMap { row in row.calibration.map { "- \(row.site), \(row.variant): \($0)" } }
        if !notes.isEmpty { text += "\nCalibration:\n" + notes.joined(separator: "\n") + "\n" }
        return text
    }

    // MARK: Scoring and the plain rules

    private static func score(_ lines: [String], truth: String) throws -> SiteScoring.Report {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("presence-\(UUID().uuidString).jsonl")
        try Data(lines.joined().utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try SiteScoring.score(presence: file.path, truth: truth)
    }

    /// The plain rules' presence lines, made from the gateways' evidence in `lines`, scored.
    private static func baselines(_ lines: [String], layout: SiteLayout, truth: String, site: String) throws -> [Row] {
        let positioned = layout.gateways.compactMap(\.position)
        let height = positioned.isEmpty ? 0 : positioned.reduce(0) { $0 + $1.z } / Double(positioned.count)
        var strongest: [String] = []
        var centroid: [String] = []
        for line in lines {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let gateways = object["gateways"] as? [String: Any], let time = object["time"], let beacon = object["beacon"]
            else { continue }
            let heard = gateways.compactMap { id, value -> (gateway: SiteGateway, rssi: Double)? in
                guard let rssi = value as? Double, let index = layout.index(of: id) else { return nil }
                return (layout.gateways[index], rssi)
            }.sorted { $0.rssi != $1.rssi ? $0.rssi > $1.rssi : $0.gateway.id < $1.gateway.id } // ties: by id, every run alike
            guard let loudest = heard.first else { continue }
            var room: [String: Any] = ["time": time, "beacon": beacon]
            room["room"] = loudest.gateway.room ?? NSNull()
            if let floor = loudest.gateway.floor { room["floor"] = floor }
            strongest.append(try json(room))
            var sw = 0.0
            var sx = 0.0
            var sy = 0.0
            for (gateway, rssi) in heard.prefix(4) {
                guard let p = gateway.position else { continue }
                // 1/d with d = 10^((P − rssi)/(10 n)): the measured power cancels out in the weights.
                let w = power(10, rssi / (10 * PositioningConfiguration().pathLossExponent))
                sw += w
                sx += w * p.x
                sy += w * p.y
            }
            var point: [String: Any] = ["time": time, "beacon": beacon, "room": NSNull()]
            point["position"] = sw > 0 ? ["x": sx / sw, "y": sy / sw, "z": height] : NSNull()
            centroid.append(try json(point))
        }
        return [
            Row(site: site, variant: "strongest gateway", report: try score(strongest, truth: truth), positions: false),
            Row(site: site, variant: "centroid of 4", report: try score(centroid, truth: truth), rooms: false),
        ]
    }

    private static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) + "\n"
    }
}
