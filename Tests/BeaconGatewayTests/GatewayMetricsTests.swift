import BeaconBlueZ
import BeaconCore
import BeaconGateway
import BeaconPipeline
import BeaconSinks
import BeaconSite
import Testing

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
}
