import BeaconCore
import BeaconSite
import BeaconSiteReport

/// A site hub's fusion (issue 16): gateway records per second through `SiteFusion` at 10,000
/// beacons × 8 gateways — each report decoded from the bytes a gateway publishes, every record
/// filed, and every cycle fused (rooms with hysteresis, a multilateration and a track per beacon)
/// — in the binary and the JSON format; allocations per record; bytes on the wire per record; and
/// the hub's memory per tracked beacon per gateway.
///
/// The reports are encoded once, before timing, as the gateways of a 40 m × 40 m hall would send
/// them (16 buckets each, RSSI from the log-distance model at each tag's position — tags spread
/// over the area the gateways cover — with a fixed pseudo-random spread); each cycle re-stamps
/// their header times in place, as if new.
///
/// Then the JSON reports' decoding alone (issue 30), by each decoder measured for it: the
/// package's `GatewayReportJSONReader` and Foundation's `JSONDecoder` (the one in
/// FoundationEssentials; Foundation re-exports it). `beacond-bench site binary` (or `json`)
/// runs one format only, for a profile.
enum SiteBenchmarks {
    static let beaconCount = 10_000
    static let gatewayCount = 8
    static let bucketCount = 16

    static func run() throws -> [BenchResult] {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.contains("grid") {
            return [
                try throughput(
                    format: .binary, grid: true, walls: arguments.contains("walls"), smoothing: !arguments.contains("lag0"))
            ]
        }
        let only = GatewayReportFormat.allCases.filter { arguments.contains($0.rawValue) }
        var results = try (only.isEmpty ? GatewayReportFormat.allCases : only).map { try throughput(format: $0) }
        if only.isEmpty {
            results.append(try throughput(format: .binary, grid: true))
            results.append(try throughput(format: .binary, grid: true, walls: true))
        }
        if only.isEmpty || only == [.json] { results += try jsonDecoding() }
        return results
    }

    /// Decoding alone: one cycle's JSON reports by the reader. (`JSONDecoder`, which read them
    /// before issue 30, took 12,400–19,000 ns/record and 13 allocations/record: BENCHMARKS.md.)
    static func jsonDecoding() throws -> [BenchResult] {
        let time = Timestamp(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
        let reports = reports(format: .json, layout: try layout(), time: time)
        let records = beaconCount * gatewayCount
        var count = 0
        let reader = try Bench.measure("site JSON decoding: GatewayReportJSONReader", items: records, unit: "records") {
            for report in reports {
                try report.withUnsafeBytes { bytes in
                    try GatewayReportDecoder.decode(bytes, header: { _ in }, record: { count &+= $0.sampleCount })
                }
            }
        }
        blackHole(count)
        return [reader]
    }

    static func layout(walls: Bool = false) throws -> SiteLayout {
        // Two rows of four on the ceiling; a room per quarter of the hall.
        let gateways = (0..<gatewayCount).map { g in
            let x = 5.0 + Double(g % 4) * 10
            let y = g < 4 ? 8.0 : 32.0
            return SiteGateway(
                id: "gw-\(g)", room: "room-\(g % 4 / 2 + (g < 4 ? 0 : 2))", position: Vector3(x: x, y: y, z: 3))
        }
        guard walls else { return try SiteLayout(gateways: gateways) }
        // With a floor plan: six shelves of 4 m × 6 m, and a wall across the hall with a 4 m door.
        var obstacles: [SiteObstacle] = []
        for column in 0..<3 {
            for row in 0..<2 {
                let x = 8.0 + Double(column) * 10
                let y = 11.0 + Double(row) * 11
                obstacles.append(SiteObstacle(.block(SiteRoomOutline.rectangle(SIMD2(x, y), SIMD2(x + 4, y + 6)))))
            }
        }
        obstacles.append(SiteObstacle(.wall([SIMD2(0, 20), SIMD2(18, 20)])))
        obstacles.append(SiteObstacle(.wall([SIMD2(22, 20), SIMD2(45, 20)])))
        return try SiteLayout(gateways: gateways, obstacles: obstacles)
    }

    /// One cycle's reports of every gateway, encoded in `format`.
    static func reports(format: GatewayReportFormat, layout: SiteLayout, time: Timestamp) -> [[UInt8]] {
        var random = SplitMix64(seed: 16)
        let topics = SiteTopics(site: "bench", bucketCount: bucketCount)
        let ids = (0..<beaconCount).map { i in
            BeaconID.iBeacon(
                uuidHigh: 0x7A1E_0C33_52B4_4F6D, uuidLow: 0x9E8A_2C3B_4D5E_6F70, major: UInt16(i >> 16),
                minor: UInt16(truncatingIfNeeded: i))
        }
        // Tags anywhere the gateways cover (their hull, as a site plans it), not outside it, nor
        // inside a shelf or on a wall's line.
        let positions = ids.indices.map { _ in
            while true {
                let point = SIMD2(5 + random.nextUnit() * 30, 8 + random.nextUnit() * 24)
                let blocked =
                    layout.obstacles.contains { $0.encloses(point) }
                    || (!layout.obstacles.isEmpty && abs(point.y - 20) < 0.6)
                if !blocked { return (x: point.x, y: point.y) }
            }
        }
        var reports: [[UInt8]] = []
        for (g, gateway) in layout.gateways.enumerated() {
            var encoders = (0..<bucketCount).map { _ in GatewayReportEncoder(gateway: gateway.id, format: format) }
            for b in encoders.indices { encoders[b].begin(time: time, cycleLength: .seconds(1)) }
            let point = gateway.position!
            for (i, id) in ids.enumerated() {
                let dx = positions[i].x - point.x
                let dy = positions[i].y - point.y
                let distance = (dx * dx + dy * dy + 1.8 * 1.8).squareRoot() // tags at 1.2 m, gateways at 3 m
                let rssi = -59 - 20 * log10Approximation(distance) + (random.nextUnit() - 0.5) * 4
                encoders[topics.bucket(of: id)].append(
                    GatewayRecord(
                        beacon: id, rssi: rssi, meanRSSI: rssi + 0.5, distance: distance, accuracy: distance / 4,
                        sampleCount: 5 + g % 3, seen: true, lastSeen: time - .milliseconds(120), measuredPower: -59))
            }
            for b in encoders.indices {
                encoders[b].finish()
                reports.append(encoders[b].bytes)
            }
        }
        return reports
    }

    /// log10 without Foundation (the harness avoids it): ln via the bit pattern and a series.
    static func log10Approximation(_ x: Double) -> Double {
        var value = x
        var exponent = 0.0
        while value > 2 {
            value /= 2
            exponent += 1
        }
        let t = (value - 1) / (value + 1)
        var ln = 0.0
        var power = t
        var n = 1.0
        for _ in 0..<12 {
            ln += power / n
            power *= t * t
            n += 2
        }
        return (2 * ln + exponent * 0.6931471805599453) / 2.302585092994046
    }

    /// Writes `time` into a report's header in place (binary: bytes 4–11; JSON: the RFC 3339 text).
    static func restamp(_ report: inout [UInt8], format: GatewayReportFormat, time: Timestamp) {
        switch format {
        case .binary:
            var value = UInt64(bitPattern: time.nanosecondsSinceEpoch)
            for i in 4..<12 {
                report[i] = UInt8(truncatingIfNeeded: value)
                value >>= 8
            }
        case .json:
            let marker = Array(#""time":""#.utf8)
            let text = Array(time.rfc3339String.utf8)
            var start = 0
            while !report[start..<(start + marker.count)].elementsEqual(marker) { start += 1 }
            start += marker.count
            for (i, byte) in text.enumerated() { report[start + i] = byte }
        }
    }

    /// Records per second through the fusion; with `grid`, every beacon tracked by the grid
    /// filter (the default), else multilaterated and Kalman-smoothed (`hub.position.grid: off`); with
    /// `walls`, on a floor plan of shelves and a wall (`beacond-bench site grid walls`); without
    /// `smoothing`, with no fixed-lag smoother (`beacond-bench site grid lag0`). Each cycle's facts
    /// are described, smoothed positions included, as the hub pipeline does for its observers.
    static func throughput(format: GatewayReportFormat, grid: Bool = false, walls: Bool = false, smoothing: Bool = true)
        throws -> BenchResult
    {
        let layout = try layout(walls: walls)
        // Calibrated to the hall, as a site is: the path-loss exponent and the tags' height of the model.
        var configuration = SiteFusionConfiguration()
        configuration.positioning.pathLossExponent = 2
        configuration.positioning.tagHeight = 1.2
        if grid {
            configuration.positioning.grid = GridTracking(lag: smoothing ? GridTracking().lag : 0)
        } else {
            configuration.positioning.gridByDefault = false
        }
        let fusion = try SiteFusion(layout: layout, configuration: configuration)
        var facts = SiteCycleFacts(gatewayIDs: layout.gateways.map(\.id))
        let cycle: Int64 = 1_000_000_000
        var time = Timestamp(nanosecondsSinceEpoch: 1_700_000_000 * cycle)
        var reports = reports(format: format, layout: layout, time: time)
        let recordsPerCycle = beaconCount * gatewayCount
        let wireBytes = reports.reduce(0) { $0 + $1.count }
        var fused = 0
        var positioned = 0
        var smoothed = 0
        let clock = ContinuousClock()
        var filing = Duration.zero
        var fusing = Duration.zero
        let cyclesPerRun = 3
        func feed() throws {
            for _ in 0..<cyclesPerRun {
                time = time + .seconds(1)
                for i in reports.indices { restamp(&reports[i], format: format, time: time) }
                let filed = clock.now
                for report in reports {
                    _ = try report.withUnsafeBytes { try fusion.ingest(report: $0) }
                }
                // Closes the cycle the reports describe (the default lateness is 1 s).
                let closed = clock.now
                fusion.advance(to: time + .seconds(1)) { update in
                    fusion.describeCycle(update, into: &facts, evidence: false)
                    for i in update.beacons.indices where facts.smoothedPosition(ofBeaconAt: i) != nil { smoothed &+= 1 }
                    fused &+= update.beacons.count
                    for beacon in update.beacons where beacon.position != nil { positioned &+= 1 }
                }
                filing += closed - filed
                fusing += clock.now - closed
            }
        }
        let rssBefore = RangingBenchmarks.residentBytes()
        try feed() // creates the tracked beacons and their evidence
        let rssAfter = RangingBenchmarks.residentBytes()
        filing = .zero
        fusing = .zero
        var result = try Bench.measure(
            "site fusion: \(beaconCount) beacons × \(gatewayCount) gateways, \(format) reports"
                + (grid ? ", grid filter" : ", per-cycle fit") + (walls ? " with 6 shelves and a wall" : "")
                + (grid && !smoothing ? ", no smoother" : ""),
            items: recordsPerCycle * cyclesPerRun, unit: "records"
        ) { try feed() }
        precondition(fusion.trackedCount == beaconCount && fused > 0 && positioned > 0)
        precondition((smoothed > 0) == (grid && smoothing), "a smoothed position for every tracked beacon, with the smoother on")
        precondition(fusion.statistics.staleRecords == 0 && fusion.statistics.lateRecords == 0)
        let statistics = fusion.statistics
        result.extra = [
            ("cycle (80,000 records, 10,000 fused)", Bench.format(result.bestSeconds / Double(cyclesPerRun) * 1000, 1) + " ms"),
            (
                "of which decoding and filing",
                Bench.format(filing.seconds * 100 / (filing.seconds + fusing.seconds), 0) + " %"
            ),
            ("bytes on the wire/record", Bench.format(Double(wireBytes) / Double(recordsPerCycle), 1)),
            (
                "RSS growth bytes/beacon/gateway",
                Bench.format(Double(rssAfter - rssBefore) / Double(beaconCount * gatewayCount), 0)
            ),
            (
                grid ? "tracked by the grid filter" : "multilaterated",
                Bench.format(
                    Double(grid ? statistics.tracked : statistics.multilaterations) * 100
                        / Double(statistics.tracked + statistics.multilaterations + statistics.centroids), 1) + " %"
            ),
        ]
        if grid {
            result.extra.append(("grid filter bytes/tracked beacon", "\(fusion.gridBytesPerBeacon)"))
            result.extra.append(
                ("smoothed positions per cycle", Bench.format(Double(smoothed) / Double(max(fused, 1)) * 100, 0) + " %"))
            result.extra.append(("grid cell", Bench.format(fusion.gridCellSize, 2) + " m"))
            result.extra.append(("cells stepped/beacon", Bench.format(fusion.gridCellsPerTrackedBeacon, 0)))
        }
        return result
    }
}
