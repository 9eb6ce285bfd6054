import BeaconAlertEngine
import BeaconBlueZ
import BeaconBuildInfo
import BeaconCore
import BeaconDevices
import BeaconPipeline
import BeaconSite
import BeaconSiteReport
import Metrics
import Prometheus
import Synchronization

/// The daemon's metrics, made through swift-metrics and exported in the Prometheus text format
/// (``render()``, served at `GET /metrics` by the `ControlServer`).
///
/// The pipeline itself keeps plain counters (`PipelineStatistics`) so its hot path pays
/// nothing; ``collect(_:trackedBeacons:backlogs:now:)`` turns their growth into metric increments
/// when a scrape comes (and once more at exit). Sinks are measured by ``MeteredSink`` and the
/// scanner by ``record(_:)`` as things happen.
///
/// | metric | type | labels |
/// |---|---|---|
/// | `beacond_packets_received_total` | counter | |
/// | `beacond_adverts_parsed_total` | counter | |
/// | `beacond_adverts_malformed_total` | counter | `kind` |
/// | `beacond_beacon_sightings_total` | counter | |
/// | `beacond_ranging_cycles_total` | counter | |
/// | `beacond_beacons_tracked` | gauge | |
/// | `beacond_alert_events_total` | counter | `alert`, `event` |
/// | `beacond_external_events_total` | counter | `name` |
/// | `beacond_sink_deliveries_total` | counter | `sink` |
/// | `beacond_sink_failures_total` | counter | `sink` |
/// | `beacond_sink_delivery_seconds` | histogram | `sink` |
/// | `beacond_alert_latency_seconds` | histogram | `alert`, `sink` | (``AlertLatency``: advertisement to sink, live sources only) |
/// | `beacond_alerts_unanswered` | gauge | `priority` (`passive`, `active`, `time-sensitive`, `critical`: delivered instances waiting for an answer, the badge) |
/// | `beacond_remote_alerts_checks_total` | counter | `outcome` (`updated`, `staged`, `unchanged`, `rejected`, `unreachable`, `refused`, `bad-signature`: each check of the remote alert document) |
/// | `beacond_outbox_depth` | gauge | `sink` |
/// | `beacond_outbox_spilled_total` | counter | `sink` |
/// | `beacond_sink_dead_letters_total` | counter | `sink` |
/// | `beacond_scanner_restarts_total` | counter | |
/// | `beacond_gateway_advertising` | gauge | | (`site.advertise`: 1 while the adapter advertises the gateway's identity, 0 when the controller refused) |
/// | `beacond_site_reports_total` | counter | | (a hub: reports fused)
/// | `beacond_site_reports_refused_total` | counter | `reason` (`ReportRefusal.Reason`, and `queue_full`) |
/// | `beacond_site_beacons_refused_total` | counter | `cap` (`site`: hub.maxTracked, `gateway`: hub.maxBeaconsPerGateway) |
/// | `beacond_site_gateway_online` | gauge | `gateway` (a hub: 1 while the gateway reports, 0 once it is offline) |
/// | `beacond_site_gateway_last_report_seconds` | gauge | `gateway` (the age of its latest report at the scrape; absent before its first) |
/// | `beacond_site_calibration_exponent` | gauge | | (a hub that calibrates: the path-loss exponent in use)
/// | `beacond_site_calibration_receive_offset_db` | gauge | `gateway` |
/// | `beacond_site_calibration_fixes` | gauge | | (fixes the latest fit rested on)
/// | `beacond_site_calibration_heldout_misfit_db` | gauge | `model` (`in_use`, `fit`: the latest fit's held-back misfit) |
/// | `beacond_site_calibration_fits_total` | counter | `verdict` (`applied`, `not_better`, `degenerate`) |
/// | `beacond_build_info` | gauge | `version`, `commit` (always 1) |
/// | `process_cpu_seconds_total`, `process_resident_memory_bytes`, `process_virtual_memory_bytes`, `process_start_time_seconds`, `process_open_fds`, `process_max_fds` | | the Prometheus clients' standard process metrics, from `/proc` at each scrape (`ProcessMetrics`) |
///
/// Every family has its `# HELP` and `# TYPE` lines (`MetricHelp`).
public final class GatewayMetrics: Sendable {
    /// The registry the metrics live in; ``render()`` writes it.
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    private let packets: Metrics.Counter
    private let adverts: Metrics.Counter
    private let sightings: Metrics.Counter
    private let cycles: Metrics.Counter
    private let tracked: Metrics.Gauge
    private let scannerRestarts: Metrics.Counter
    private let advertising: Metrics.Gauge
    private let collected = Mutex(PipelineStatistics())
    private let labelled = Mutex<[String: Metrics.Counter]>([:])
    private let queueDrops = Mutex(0)
    private let gauges = Mutex<[String: Metrics.Gauge]>([:])

    /// Creates the metrics in a registry of their own (each gateway, and each test, has one).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        factory = PrometheusMetricsFactory(registry: registry)
        packets = Metrics.Counter(label: "beacond_packets_received_total", factory: factory)
        adverts = Metrics.Counter(label: "beacond_adverts_parsed_total", factory: factory)
        sightings = Metrics.Counter(label: "beacond_beacon_sightings_total", factory: factory)
        cycles = Metrics.Counter(label: "beacond_ranging_cycles_total", factory: factory)
        tracked = Metrics.Gauge(label: "beacond_beacons_tracked", factory: factory)
        scannerRestarts = Metrics.Counter(label: "beacond_scanner_restarts_total", factory: factory)
        advertising = Metrics.Gauge(label: "beacond_gateway_advertising", factory: factory)
    }

    /// Brings the pipeline's counters, the tracked beacons and each sink's outbox depth up to date,
    /// and a hub's gateways' status as of `now` (the age of each one's latest report).
    public func collect(
        _ statistics: PipelineStatistics, trackedBeacons: Int, backlogs: [String: Int], now: Timestamp? = nil
    ) {
        let before = collected.withLock { last in
            defer { last = statistics }
            return last
        }
        packets.increment(by: Int64(statistics.packets - before.packets))
        adverts.increment(by: Int64(statistics.advertisements - before.advertisements))
        sightings.increment(by: Int64(statistics.sightings - before.sightings))
        cycles.increment(by: Int64(statistics.cycles - before.cycles))
        for (kind, count) in statistics.malformedByKind where count > before.malformedByKind[kind, default: 0] {
            counter("beacond_adverts_malformed_total", [("kind", kind)])
                .increment(by: Int64(count - before.malformedByKind[kind, default: 0]))
        }
        for (key, count) in statistics.eventsByAlert where count > before.eventsByAlert[key, default: 0] {
            // Keys are `alert/event`; an alert id may itself contain '/', the event never does.
            let split = key.lastIndex(of: "/") ?? key.endIndex
            let event = split < key.endIndex ? String(key[key.index(after: split)...]) : ""
            counter("beacond_alert_events_total", [("alert", String(key[..<split])), ("event", event)])
                .increment(by: Int64(count - before.eventsByAlert[key, default: 0]))
        }
        if statistics.refusedBeacons > before.refusedBeacons {
            counter("beacond_ranging_refused_beacons_total", []).increment(
                by: Int64(statistics.refusedBeacons - before.refusedBeacons))
        }
        if statistics.refusedNewcomers > before.refusedNewcomers {
            counter("beacond_ranging_refused_newcomers_total", []).increment(
                by: Int64(statistics.refusedNewcomers - before.refusedNewcomers))
        }
        if statistics.cappedEvictions > before.cappedEvictions {
            counter("beacond_ranging_capped_evictions_total", [])
                .increment(by: Int64(statistics.cappedEvictions - before.cappedEvictions))
        }
        if let site = statistics.site {
            collectSite(site, before: before.site ?? SiteFusionStatistics())
            collectGateways(site.gateways, now: now)
            if let calibration = site.calibration {
                collectCalibration(calibration, before: before.site?.calibration)
            }
        }
        if let devices = statistics.deviceResolution {
            collectDevices(devices, before: before.deviceResolution ?? PrivateAddressResolver.Statistics())
        }
        collectPeople(statistics, before: before)
        tracked.record(trackedBeacons)
        for (sink, depth) in backlogs { gauge("beacond_outbox_depth", [("sink", sink)]).record(depth) }
        for priority in AlertPriority.allCases {
            gauge("beacond_alerts_unanswered", [("priority", priority.rawValue)]).record(statistics.unanswered[priority])
        }
    }

    /// Counts a check of the remote alert document by its outcome.
    func countRemoteCheck(outcome: String) {
        counter("beacond_remote_alerts_checks_total", [("outcome", outcome)]).increment()
    }

    private func collectSite(_ site: SiteFusionStatistics, before: SiteFusionStatistics) {
        if site.reports > before.reports {
            counter("beacond_site_reports_total", []).increment(by: Int64(site.reports - before.reports))
        }
        for (reason, count) in site.refusedReports where count > before.refusedReports[reason, default: 0] {
            counter("beacond_site_reports_refused_total", [("reason", reason.rawValue)])
                .increment(by: Int64(count - before.refusedReports[reason, default: 0]))
        }
        for (cap, now, then) in [
            ("site", site.refusedBeacons, before.refusedBeacons),
            ("gateway", site.refusedBeaconsOverGatewayCap, before.refusedBeaconsOverGatewayCap),
        ] where now > then {
            counter("beacond_site_beacons_refused_total", [("cap", cap)]).increment(by: Int64(now - then))
        }
    }

    private func collectDevices(_ now: PrivateAddressResolver.Statistics, before: PrivateAddressResolver.Statistics) {
        for (outcome, count, then) in [
            ("resolved", now.addressesResolved, before.addressesResolved),
            ("stranger", now.addressesHashed - now.addressesResolved, before.addressesHashed - before.addressesResolved),
        ] where count > then {
            counter("beacond_devices_addresses_total", [("outcome", outcome)]).increment(by: Int64(count - then))
        }
        if now.heldBack > before.heldBack {
            counter("beacond_devices_sightings_held_back_total", []).increment(by: Int64(now.heldBack - before.heldBack))
        }
        if now.corroborated > before.corroborated {
            counter("beacond_devices_arrivals_corroborated_total", []).increment(
                by: Int64(now.corroborated - before.corroborated))
        }
    }

    /// The people present and per room; a room that emptied since the last collection reads 0.
    private func collectPeople(_ statistics: PipelineStatistics, before: PipelineStatistics) {
        guard
            !statistics.peopleByRoom.isEmpty || !before.peopleByRoom.isEmpty || statistics.peoplePresent > 0
                || before.peoplePresent > 0
        else { return }
        gauge("beacond_people_present", []).record(statistics.peoplePresent)
        for room in Set(statistics.peopleByRoom.keys).union(before.peopleByRoom.keys) {
            gauge("beacond_room_people", [("room", room)]).record(statistics.peopleByRoom[room] ?? 0)
        }
    }

    private func collectGateways(_ gateways: [SiteGatewayStatus], now: Timestamp?) {
        for status in gateways {
            gauge("beacond_site_gateway_online", [("gateway", status.gateway)]).record(status.online ? 1 : 0)
            if let now, let last = status.lastReport {
                gauge("beacond_site_gateway_last_report_seconds", [("gateway", status.gateway)])
                    .record(max(0, (now - last).secondsValue))
            }
        }
    }

    private func collectCalibration(_ status: CalibrationStatus, before: CalibrationStatus?) {
        gauge("beacond_site_calibration_exponent", []).record(status.model.pathLossExponent)
        for (gateway, offset) in zip(status.gateways, status.model.receiveOffsets) {
            gauge("beacond_site_calibration_receive_offset_db", [("gateway", gateway)]).record(offset)
        }
        gauge("beacond_site_calibration_fixes", []).record(status.fixes)
        if let before = status.heldOutBefore, let after = status.heldOutAfter {
            gauge("beacond_site_calibration_heldout_misfit_db", [("model", "in_use")]).record(before)
            gauge("beacond_site_calibration_heldout_misfit_db", [("model", "fit")]).record(after)
        }
        if status.fits > (before?.fits ?? 0), status.verdict != .none {
            counter("beacond_site_calibration_fits_total", [("verdict", status.verdict.rawValue)])
                .increment(by: Int64(status.fits - (before?.fits ?? 0)))
        }
    }

    /// The gauge of `label` with `dimensions`, made at its first use (as ``counter(_:_:)``).
    func gauge(_ label: String, _ dimensions: [(String, String)]) -> Metrics.Gauge {
        let key = label + dimensions.map { "|\($0.0)=\($0.1)" }.joined()
        return gauges.withLock { gauges in
            if let gauge = gauges[key] { return gauge }
            let gauge = Metrics.Gauge(label: label, dimensions: dimensions, factory: factory)
            gauges[key] = gauge
            return gauge
        }
    }

    /// Brings the count of reports a hub's full queue dropped up to `total` (the subscription's count).
    public func collectQueueDrops(total: Int) {
        let before = queueDrops.withLock { last in
            defer { last = max(last, total) }
            return last
        }
        if total > before {
            counter("beacond_site_reports_refused_total", [("reason", ReportRefusal.Reason.queueFull.rawValue)])
                .increment(by: Int64(total - before))
        }
    }

    /// Counts what the scanner reports: each reopened adapter is a restart; whether the adapter
    /// advertises the gateway's identity.
    public func record(_ event: ScannerEvent) {
        switch event {
        case .reopened: scannerRestarts.increment()
        case .advertising: advertising.record(1)
        case .advertisingRefused, .advertisingStopped: advertising.record(0)
        default: break
        }
    }

    /// Counts a named event posted to the daemon.
    public func recordExternalEvent(name: String) {
        counter("beacond_external_events_total", [("name", name)]).increment()
    }

    /// Counts events a sink's full backlog spilled to its dead letters.
    public func recordOverflow(sink: String, spilled: Int) {
        counter("beacond_outbox_spilled_total", [("sink", sink)]).increment(by: Int64(spilled))
    }

    /// An event `sink` gave up on (moved to its dead letters).
    public func recordDeadLetter(sink: String) {
        counter("beacond_sink_dead_letters_total", [("sink", sink)]).increment()
    }

    /// Every metric in the Prometheus text exposition format (version 0.0.4).
    public func render() -> String {
        MetricHelp.annotate(registry.emitToString()) + (ProcessMetrics.current()?.exposition ?? "") + Self.buildInfo
    }

    /// `beacond_build_info{version,commit} 1`: which build answers (``BuildInfo``).
    static let buildInfo =
        "# HELP beacond_build_info The version and commit of the running beacond (always 1).\n"
        + "# TYPE beacond_build_info gauge\n"
        + "beacond_build_info{version=\"\(escapedLabel(BuildInfo.version))\",commit=\"\(escapedLabel(BuildInfo.commit))\"} 1\n"

    /// A label value in the text format: backslashes, quotes and line feeds escaped.
    static func escapedLabel(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    func counter(_ label: String, _ dimensions: [(String, String)]) -> Metrics.Counter {
        let key = label + dimensions.map { "|\($0.0)=\($0.1)" }.joined()
        return labelled.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Metrics.Counter(label: label, dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }
    }
}
