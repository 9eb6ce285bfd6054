import ArgumentParser
import BeaconAlertEngine
import BeaconCore
import BeaconGateway
import BeaconPipeline
import BeaconSimulator
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyPlugins

/// `beacond replay CAPTURE… --config FILE`: runs captures through ranging, the configured
/// strategies and the alert engine on capture time, printing alert events as JSON lines.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replays captures through ranging, strategies and the alert engine; prints alert events.",
        discussion: """
            Captures: btsnoop (btmon -w, Android HCI logs), pcap and pcapng (HCI H4 or LE sniffers).
            Events are JSON lines on stdout (event, alert, beacon, strategy, time, …); a summary goes \
            to stderr. Time is the capture's own, so the result does not depend on --speed.
            """
    )

    @Argument(help: ArgumentHelp("Capture files, replayed one after the other.", valueName: "capture"))
    var captures: [String]

    @Option(help: ArgumentHelp("The gateway configuration (YAML) with the alert definitions.", valueName: "file"))
    var config: String

    @Option(help: ArgumentHelp("max (default) or a factor over real time, e.g. 1 or 10.", valueName: "max|N"))
    var speed: String = "max"

    @Option(
        name: .customLong("plugin"),
        help: ArgumentHelp(
            "Load strategies from this plugin (a shared library).",
            valueName: "path"))
    var plugins: [String] = []

    func validate() throws {
        if speed != "max", Double(speed).map({ $0 > 0 }) != true {
            throw ValidationError("--speed takes max or a positive number, not '\(speed)'")
        }
    }

    func run() async throws {
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

    private func makePipeline() throws -> AlertPipeline {
        var registry = StrategyRegistry.builtIn()
        for path in plugins { try StrategyPluginLoader.load(path: path, into: &registry) }
        do {
            return try AlertPipeline(configuration: GatewayConfiguration.load(path: config), registry: registry)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }

    static func summary(_ stats: PipelineStatistics) -> String {
        "replay: \(stats.packets) packets, \(stats.advertisements) advertisements, \(stats.sightings) beacon sightings, "
            + "\(stats.cycles) cycles, \(stats.malformed) malformed; events: "
            + (stats.eventsByAlert.isEmpty
                ? "none"
                : stats.eventsByAlert.sorted { $0.key < $1.key }
                    .map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }
}
