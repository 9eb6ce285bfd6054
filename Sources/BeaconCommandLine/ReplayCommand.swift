import ArgumentParser
import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconSite
import BeaconSiteLink
import BeaconSiteReport
import BeaconStrategies
import BeaconStrategyKit
import Synchronization

/// `beacond replay CAPTURE… --config FILE`: runs captures through ranging, the configured
/// strategies and the alert engine on capture time, printing alert events as JSON lines.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replays captures through ranging, strategies and the alert engine; prints alert events.",
        discussion: """
            Captures: btsnoop (btmon -w, Android HCI logs), pcap and pcapng (HCI H4 or LE sniffers).
            Events are JSON lines on stdout (event, alert, beacon, strategy, time, …); a summary goes \
            to stderr. Time is the capture's own, so the result does not depend on --speed. Without \
            --config the captures are parsed and ranged, with no alerts.
            With --site SITE.yaml (gateways: [{id, room, position: [x, y, z], capture: FILE}]) the \
            captures are a site's, one per gateway: each is ranged on its own, their packets merged by \
            timestamp, and every gateway's per-cycle records fused by a hub into rooms and positions \
            before the alerts; --presence FILE writes one JSON line per beacon per cycle (Docs/Site.md).
            """
    )

    @Argument(help: ArgumentHelp("Capture files, replayed one after the other.", valueName: "capture"))
    var captures: [String] = []

    @Option(help: ArgumentHelp("The gateway configuration (YAML) with the alert definitions.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("A site: one capture per gateway, fused by a hub (see Docs/Site.md).", valueName: "site.yaml"))
    var site: String?

    @Option(help: ArgumentHelp("With --site: write each fused beacon's room and position per cycle here.", valueName: "file"))
    var presence: String?

    @Option(
        help: ArgumentHelp(
            "With --site: calibrate the hub's radio model in a first pass over the captures (prefit, the default), "
                + "as a live hub does (live), or not at all (off).", valueName: "prefit|live|off"))
    var calibration: String = "prefit"

    @Option(help: ArgumentHelp("max (default) or a factor over real time, e.g. 1 or 10.", valueName: "max|N"))
    var speed: String = "max"

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        if speed != "max", Double(speed).map({ $0 > 0 }) != true {
            throw ValidationError("--speed takes max or a positive number, not '\(speed)'")
        }
        if site == nil {
            if captures.isEmpty { throw ValidationError("give capture files, or --site SITE.yaml") }
            if presence != nil { throw ValidationError("--presence goes with --site") }
        } else if !captures.isEmpty {
            throw ValidationError(
                "with --site the captures are listed in the site file (gateways[].capture), not on the command line")
        }
    }

    func run() async throws {
        if let site {
            try await replaySite(site)
            return
        }
        let pipeline = try makePipeline()
        var output = StandardOutput()
        for path in captures {
            let source: CaptureReplaySource
            do {
                source = try CaptureReplaySource(path: path, speed: Double(speed))
            } catch {
                printError("error: \(path): \(error)")
                throw ExitCode(2)
            }
            try await PipelineRunner.run(source: source, pipeline: pipeline) { routed in
                output.write(routed.event.jsonLine)
            }
            let read = source.statistics
            let errors = read.errorsByKind.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
            printError("\(path): \(read.recordsDelivered) records" + (errors.isEmpty ? "" : ", unreadable: \(errors)"))
        }
        output.flush()
        printError(Self.summary(pipeline.statistics))
    }

    private func replaySite(_ path: String) async throws {
        let registry = try plugins.registry()
        let replay: SiteReplay
        let presenceFile: PresenceFile?
        do {
            let document = try SiteReplayDocument.load(path: path)
            let configuration = try config.map { file in try GatewayConfiguration.load(path: file) } ?? GatewayConfiguration()
            let alerts = try configuration.pipelineAlerts()
            presenceFile = try presence.map { try PresenceFile(path: $0) }
            guard let mode = SiteReplay.Calibration(rawValue: calibration) else {
                printError("error: --calibration must be prefit, live or off, not '\(calibration)'")
                throw ExitCode(2)
            }
            replay = try SiteReplay(
                document: document, alerts: alerts, registry: registry, presence: presenceFile.map { file in { file.write($0) } },
                calibration: mode, beacons: configuration.beacons, people: configuration.people, devices: configuration.devices)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        var output = StandardOutput()
        let bar = Mutex(ProgressBar.onTerminal())
        defer { bar.withLock { $0.finish() } }
        do {
            try await replay.run(progress: { done in bar.withLock { $0.update(fraction: done, label: "replay --site \(path)") } })
            {
                routed in output.write(routed.event.jsonLine)
            }
        } catch {
            output.flush()
            printError("error: \(error)")
            throw ExitCode(1)
        }
        output.flush()
        try presenceFile?.close()
        for error in replay.recordingErrors { printError("error: \(error)") }
        for capture in replay.captureSummaries {
            let errors = capture.errors.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
            printError("\(capture.path): \(capture.records) records" + (errors.isEmpty ? "" : ", unreadable: \(errors)"))
        }
        let statistics = replay.hub.statistics
        if let site = statistics.site {
            printError(
                "site: \(site.reports) reports, \(site.records) records, \(site.cycles) cycles, \(site.roomChanges) room changes, "
                    + "\(site.tracked) tracked, \(site.multilaterations) multilaterated and \(site.centroids) centroid positions")
            if let calibration = replay.calibrationStatus { printError("calibration: " + calibration.summary) }
        }
        printError(Self.summary(statistics))
    }

    private func makePipeline() throws -> AlertPipeline {
        let registry = try plugins.registry()
        do {
            guard let config else {
                printError(
                    "replay: no --config, so no alerts: the captures are parsed and ranged (add --config alerts.yaml for alerts)")
                return try AlertPipeline(configuration: GatewayConfiguration(), registry: registry)
            }
            return try AlertPipeline(configuration: GatewayConfiguration.load(path: config), registry: registry)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }

    static func summary(_ stats: PipelineStatistics, label: String = "replay") -> String {
        let events =
            stats.eventsByAlert.isEmpty
            ? "none" : stats.eventsByAlert.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        var summary =
            "\(label): \(stats.packets) packets, \(stats.advertisements) advertisements, \(stats.sightings) beacon sightings, "
            + "\(stats.cycles) cycles, \(stats.malformed) malformed; events: \(events)"
        if stats.refusedNewcomers > 0 {
            summary += "; \(stats.refusedNewcomers) new beacons refused past ranging.maxNewPerCycle (a flood of identities?)"
        }
        if stats.refusedBeacons + stats.cappedEvictions > 0 {
            summary += "; at the tracked-beacon cap (ranging.maxTracked): \(stats.refusedBeacons) sightings of new beacons "
            summary += "refused, \(stats.cappedEvictions) beacons evicted"
        }
        if let site = stats.site {
            // A hub: what it fused, and every report it refused, by reason.
            summary += "; site: \(site.reports) reports fused, \(site.records) records"
            let refused = site.refusedReports.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                "\($0.key.rawValue) \($0.value)"
            }
            summary += refused.isEmpty ? ", none refused" : ", refused: " + refused.joined(separator: ", ")
            if site.refusedBeacons + site.refusedBeaconsOverGatewayCap > 0 {
                summary += "; new beacons refused at hub.maxTracked \(site.refusedBeacons), at hub.maxBeaconsPerGateway "
                summary += "\(site.refusedBeaconsOverGatewayCap)"
            }
        }
        summary += "; ranging memory \(stats.rangingReservedBytes / 1024) KiB reserved"
        return summary + "; " + PeakMemory.summary
    }
}
