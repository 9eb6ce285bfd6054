import BeaconBlueZ
import BeaconBuildInfo
import BeaconCore
import BeaconPipeline
import BeaconSinks
import BeaconSite
import Foundation
import Testing

@testable import BeaconGateway

/// The metrics the daemon exports: collected from the pipeline's counters, and from sinks.
@Suite("GatewayMetrics")
struct GatewayMetricsTests {
    static func lines(_ metrics: GatewayMetrics) -> Set<String> {
        Set(metrics.render().split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") })
    }

    @Test("collecting twice adds only the growth of each counter; gauges take the latest value")
    func deltas() {
        let metrics = GatewayMetrics()
        var statistics = PipelineStatistics()
        statistics.packets = 10
        statistics.advertisements = 9
        statistics.sightings = 7
        statistics.cycles = 2
        statistics.malformedByKind = ["truncated": 1]
        statistics.eventsByAlert = ["lobby/dwell/created": 1]
        metrics.collect(statistics, trackedBeacons: 5, backlogs: ["jsonl:-": 2])
        statistics.packets = 25
        statistics.malformedByKind = ["truncated": 3, "badLength": 1]
        statistics.eventsByAlert = ["lobby/dwell/created": 1, "lobby/dwell/delivered": 1]
        metrics.collect(statistics, trackedBeacons: 4, backlogs: ["jsonl:-": 0])
        let lines = Self.lines(metrics)
        for expected in [
            "beacond_packets_received_total 25", "beacond_adverts_parsed_total 9", "beacond_beacon_sightings_total 7",
            "beacond_ranging_cycles_total 2", #"beacond_adverts_malformed_total{kind="truncated"} 3"#,
            #"beacond_adverts_malformed_total{kind="badLength"} 1"#,
            #"beacond_alert_events_total{alert="lobby/dwell",event="created"} 1"#,
            #"beacond_alert_events_total{alert="lobby/dwell",event="delivered"} 1"#,
            "beacond_beacons_tracked 4.0", #"beacond_outbox_depth{sink="jsonl:-"} 0.0"#,
        ] {
            #expect(lines.contains(expected), "missing \(expected) in \(lines.sorted())")
        }
    }

    @Test("a hub's gateways: online 1 or 0, and the age of each one's latest report at the scrape")
    func gateways() {
        let metrics = GatewayMetrics()
        let start = Timestamp(nanosecondsSinceEpoch: 1_767_225_600_000_000_000)
        var statistics = PipelineStatistics()
        var site = SiteFusionStatistics()
        site.gateways = [
            SiteGatewayStatus(gateway: "west", online: true, lastReport: start + .seconds(20), since: start),
            SiteGatewayStatus(gateway: "east", online: false, lastReport: start + .seconds(2), since: start + .seconds(12)),
            SiteGatewayStatus(gateway: "north", online: false, lastReport: nil, since: start + .seconds(10)),
        ]
        statistics.site = site
        metrics.collect(statistics, trackedBeacons: 0, backlogs: [:], now: start + .milliseconds(20_500))
        let lines = Self.lines(metrics)
        for expected in [
            #"beacond_site_gateway_online{gateway="west"} 1.0"#, #"beacond_site_gateway_online{gateway="east"} 0.0"#,
            #"beacond_site_gateway_online{gateway="north"} 0.0"#,
            #"beacond_site_gateway_last_report_seconds{gateway="west"} 0.5"#,
            #"beacond_site_gateway_last_report_seconds{gateway="east"} 18.5"#,
        ] {
            #expect(lines.contains(expected), "missing \(expected) in \(lines.sorted())")
        }
        #expect(!lines.contains { $0.hasPrefix(#"beacond_site_gateway_last_report_seconds{gateway="north"}"#) })
        // Back online at the next scrape.
        statistics.site?.gateways[1].online = true
        metrics.collect(statistics, trackedBeacons: 0, backlogs: [:], now: start + .seconds(21))
        #expect(Self.lines(metrics).contains(#"beacond_site_gateway_online{gateway="east"} 1.0"#))
    }

    @Test("scanner restarts, posted events and overflow are counted as they happen")
    func events() {
        let metrics = GatewayMetrics()
        metrics.record(.reopenScheduled(attempt: 1, delay: .seconds(1)))
        metrics.record(.reopened(attempt: 1))
        metrics.record(.reopened(attempt: 1))
        metrics.recordExternalEvent(name: "closing")
        metrics.recordOverflow(sink: "webhook", spilled: 4)
        let lines = Self.lines(metrics)
        #expect(lines.contains("beacond_scanner_restarts_total 2"))
        #expect(lines.contains(#"beacond_external_events_total{name="closing"} 1"#))
        #expect(lines.contains(#"beacond_outbox_spilled_total{sink="webhook"} 4"#))
    }

    @Test("a metered sink counts deliveries and failures and times each delivery")
    func meteredSink() async throws {
        let metrics = GatewayMetrics()
        let memory = InMemorySink()
        let good = MeteredSink(memory, sinkName: "memory", metrics: metrics)
        let refusing = InMemorySink(name: "refusing")
        refusing.setRefusing(true)
        let bad = MeteredSink(refusing, sinkName: "refusing", metrics: metrics)
        let event = OutboundEvent(key: "k", body: "{}")
        try await good.deliver(event)
        try await good.deliver(event)
        await #expect(throws: (any Error).self) { try await bad.deliver(event) }
        let lines = Self.lines(metrics)
        #expect(lines.contains(#"beacond_sink_deliveries_total{sink="memory"} 2"#))
        #expect(lines.contains(#"beacond_sink_failures_total{sink="memory"} 0"#))
        #expect(lines.contains(#"beacond_sink_failures_total{sink="refusing"} 1"#))
        #expect(lines.contains(#"beacond_sink_delivery_seconds_count{sink="memory"} 2"#))
        #expect(lines.contains(#"beacond_sink_delivery_seconds_count{sink="refusing"} 0"#))
        #expect(memory.delivered.count == 2)
    }

    @Test("the exposition lints clean: HELP and TYPE for every family, build_info and the process_* metrics")
    func lintsClean() async throws {
        let metrics = GatewayMetrics()
        var statistics = PipelineStatistics()
        statistics.packets = 3
        statistics.malformedByKind = ["truncated": 1]
        statistics.eventsByAlert = ["lobby/created": 1]
        statistics.refusedBeacons = 1
        var site = SiteFusionStatistics()
        site.gateways = [
            SiteGatewayStatus(gateway: "west", online: true, lastReport: nil, since: Timestamp(nanosecondsSinceEpoch: 0))
        ]
        statistics.site = site
        metrics.collect(statistics, trackedBeacons: 1, backlogs: ["jsonl:-": 0], now: Timestamp(nanosecondsSinceEpoch: 0))
        metrics.record(.reopened(attempt: 1))
        metrics.recordExternalEvent(name: "closing")
        metrics.recordOverflow(sink: "webhook", spilled: 1)
        let memory = MeteredSink(InMemorySink(), sinkName: "memory", metrics: metrics)
        try await memory.deliver(OutboundEvent(key: "k", body: "{}"))
        let text = metrics.render()
        #expect(PrometheusTextLint.problems(in: text) == [], "\(text)")
        let build = try #require(text.split(separator: "\n").first { $0.hasPrefix("beacond_build_info{") })
        #expect(build.hasPrefix(#"beacond_build_info{version="\#(BuildInfo.version)",commit=""#) && build.hasSuffix("} 1"))
        #expect(!BuildInfo.commit.isEmpty)
        for family in [
            "process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes",
            "process_start_time_seconds", "process_open_fds", "process_max_fds",
        ] {
            #expect(text.contains("# TYPE \(family) "), "missing \(family)")
        }
        let resident = try #require(text.split(separator: "\n").first { $0.hasPrefix("process_resident_memory_bytes ") })
        #expect((Double(resident.split(separator: " ")[1]) ?? 0) > 1_000_000, "a Swift process holds more than 1 MB")
    }

    @Test("the lint finds what promtool would: no HELP, a counter without _total, split samples, a bad value")
    func lintCatches() {
        let bad = """
            # TYPE a_total counter
            a_total 1
            # HELP b Bees.
            # TYPE b counter
            b 2
            # HELP c Cees.
            # TYPE c gauge
            c{x="1"} 1
            # HELP a_total Aes.
            d{x="1"} one
            c{x="2"} 1
            c{x="2"} 1
            """
        let problems = PrometheusTextLint.problems(in: bad)
        #expect(problems.contains("line 2: a_total has no HELP before its samples"), "\(problems)")
        #expect(problems.contains("line 4: the counter b should end in _total"), "\(problems)")
        #expect(problems.contains("line 9: the samples of a_total are not together"), "\(problems)")
        #expect(problems.contains(#"line 10: not a sample: d{x="1"} one"#), "\(problems)")
        #expect(problems.contains(#"line 12: c{x=2} appears twice"#), "\(problems)")
    }

    @Test("every metric the daemon names has its help text")
    func everyMetricHasHelp() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources/BeaconGateway")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var names: Set<String> = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /"(beacond_[a-z_]+)"/) { names.insert(String(match.1)) }
        }
        #expect(names.count > 25, "\(names)")
        #expect(names.subtracting(MetricHelp.texts.keys).sorted() == [], "help texts missing")
    }

    @Test("process figures from /proc/self/stat: CPU ticks, memory pages, start after boot")
    func processFigures() throws {
        // pid (comm with ) spaces) state ppid … (fields 14, 15 utime stime; 22 starttime; 23 vsize; 24 rss)
        let stat =
            "42 (beacond (x) y) S 1 42 42 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 3 0 1000 104857600 2560 "
            + "18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0"
        let figures = try #require(
            ProcessMetrics.parse(
                stat: stat, systemStat: "cpu 1 2 3\nbtime 1700000000\nprocesses 9\n", ticksPerSecond: 100, pageSize: 4096))
        #expect(figures.cpuSeconds == 3)
        #expect(figures.residentBytes == 2560 * 4096)
        #expect(figures.virtualBytes == 104_857_600)
        #expect(figures.startTimeSeconds == 1_700_000_010)
        #expect(ProcessMetrics.parse(stat: "garbage", systemStat: "", ticksPerSecond: 100, pageSize: 4096) == nil)
    }
}
