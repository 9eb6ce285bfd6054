import ArgumentParser
import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconStrategyKit

/// `beacond explain --alert A --beacon B (--scenario S | --capture C… | --site SITE)`: runs the
/// input again, following one alert for one beacon, and prints why it fired — or what stood in
/// its way — as a timeline.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explains one alert for one beacon on a simulation or a recording: why it fired, or why not.",
        discussion: """
            Runs the input again (as simulate or replay would, on its own time) following the alert and \
            the beacon, and prints a timeline of what changed: what ranging heard (RSSI, distance, \
            proximity, room), the strategy's state in its own words, the condition, each firing and what \
            the engine's rules made of it (ignored for cooldown, first, suppression; scheduled, delayed, \
            cancelled, delivered, reminded, answered). The last line is the verdict: when it was \
            delivered, or the furthest the decision got and what stopped it there.
            --from and --to take a time (2025-01-01T09:01:00Z) or an offset from the input's start (90s, \
            10m); the run always starts at the beginning, so the state at --from is what it was, and a \
            simulation stops at --to.
            Exit status 0 (delivered or not); 2 for options or input that cannot run.
            """
    )

    @OptionGroup var alertConfig: AlertConfigOptions

    @Option(
        help: ArgumentHelp(
            "The beacon: its identity (ibeacon:UUID:1:2), or its name in the configuration's beacons or the scenario.",
            valueName: "beacon"))
    var beacon: String

    @OptionGroup var input: OfflineInputOptions

    @Option(help: ArgumentHelp("Show and judge from this time (or offset from the start).", valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("Show and judge up to this time (or offset from the start).", valueName: "time"))
    var to: String?

    @Flag(help: "Print one JSON object instead of the timeline.")
    var json = false

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        for (name, text) in [("--from", from), ("--to", to)] {
            guard let text else { continue }
            if Timestamp(rfc3339: text) == nil, Duration(parsing: text) == nil {
                throw ValidationError(
                    "\(name) takes a time (2025-01-01T09:01:00Z) or an offset such as 90s or 10m, not '\(text)'")
            }
        }
    }

    func run() async throws {
        let input = try self.input.resolve()
        let registry = try plugins.registry()
        let (configuration, chosen) = try alertConfig.load(for: input)
        let alertID = chosen.id
        guard let beaconID = input.beacon(named: beacon, configuration: configuration) else {
            printError(
                "error: '\(beacon)' is neither a beacon identity (ibeacon:UUID:MAJOR:MINOR, altbeacon:…, eddystone-uid:…) nor a beacon's name in the configuration or the scenario"
            )
            throw ExitCode(2)
        }
        let tracer = DecisionTracer(.one(alertID: alertID, beacon: beaconID))
        var firstTime: Timestamp?
        var until: Timestamp?
        if let start = input.start, let to { until = Self.time(to, start: start) }
        do {
            try await input.run(
                configuration: configuration, registry: registry, until: until, prepare: { $0.decisionTracer = tracer },
                emit: { routed in firstTime = firstTime ?? routed.event.time })
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        tracer.finish()
        let timeline =
            tracer.timeline(alertID: alertID, beacon: beaconID)
            ?? DecisionTimeline(alertID: alertID, beacon: beaconID, matched: true)
        let start = input.start ?? tracer.firstCycle ?? firstTime ?? .epoch
        let from = from.map { Self.time($0, start: start) }
        let through = to.map { Self.time($0, start: start) }
        let name = configuration.beacons[beaconID]?.name ?? (BeaconID(beacon) == nil ? beacon : nil)
        print(
            json ? timeline.json(from: from, through: through) : timeline.text(from: from, through: through, beaconName: name),
            terminator: json ? "\n" : "")
    }

    /// A time, or an offset from `start`.
    static func time(_ text: String, start: Timestamp) -> Timestamp {
        if let time = Timestamp(rfc3339: text) { return time }
        return start + (Duration(parsing: text) ?? .zero)
    }
}
