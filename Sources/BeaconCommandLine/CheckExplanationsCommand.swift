import ArgumentParser
import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconOfflineRuns
import BeaconPipeline

/// `beacond check-explanations (--scenario S | --capture C… | --site SITE)`: holds what `explain`
/// says to what the engine did, on random (alert, beacon, time) triples of an input.
struct CheckExplanationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-explanations",
        abstract: "Checks explain's verdicts against what the engine did, on random (alert, beacon, time) triples.",
        discussion: """
            Runs the input twice — plainly, and following every alert for every beacon as explain does — \
            then draws --triples random (alert, beacon, time) triples among the pairs either run touched \
            and requires explain's verdict at that time (delivered, and when) to equal the first \
            deliveries the plain run made by then. Also requires following to change nothing the engine \
            did. For a strategy of your own (--plugin, or a custom build): its explanations are held to \
            its deliveries the same way.
            Exit status 0 when every triple agrees; 1 on a disagreement (the first ten are printed); 2 for \
            options or input that cannot run.
            """
    )

    @Option(
        help: ArgumentHelp(
            "The configuration with the alerts (default, with --scenario: its sibling NAME.alerts.yaml).",
            valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Check only this alert (repeatable; default: every alert).", valueName: "id"))
    var alert: [String] = []

    @OptionGroup var input: OfflineInputOptions

    @Option(help: "How many random (alert, beacon, time) triples to check.")
    var triples = 10_000

    @Option(help: "The seed of the random draw.")
    var seed: UInt64 = 38

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        guard triples >= 1 else { throw ValidationError("--triples takes a count of at least 1, not \(triples)") }
    }

    func run() async throws {
        let input = try self.input.resolve()
        let registry = try plugins.registry()
        let configuration = try input.configuration(config)
        let known = Set(try configuration.pipelineAlerts().map(\.id))
        if let unknown = alert.first(where: { !known.contains($0) }) {
            printError("error: no alert '\(unknown)'; the alerts: \(known.sorted().joined(separator: ", "))")
            throw ExitCode(2)
        }
        let followed = alert.isEmpty ? nil : Set(alert)
        var plain: [AlertEvent] = []
        var traced: [AlertEvent] = []
        let tracer = DecisionTracer(.every(alertIDs: followed))
        let clock = ContinuousClock()
        let started = clock.now
        do {
            try await input.run(
                configuration: configuration, registry: registry, prepare: { _ in }, emit: { plain.append($0.event) })
            let tracedStart = clock.now
            try await input.run(
                configuration: configuration, registry: registry, prepare: { $0.decisionTracer = tracer },
                emit: { traced.append($0.event) })
            let (plainTime, tracedTime) = (started.duration(to: tracedStart), tracedStart.duration(to: clock.now))
            tracer.finish()
            print("runs: plain \(Self.seconds(plainTime)), following every beacon \(Self.seconds(tracedTime))")
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        guard traced == plain else {
            print(
                "FAILED: following the decisions changed what the engine did (\(plain.count) events plain, \(traced.count) followed)"
            )
            if let index = zip(plain, traced).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                print("  the first difference, event \(index + 1):\n  plain:    \(plain[index])\n  followed: \(traced[index])")
            }
            throw ExitCode(1)
        }
        let check = ExplanationCheck(events: plain.filter { followed?.contains($0.alertID) ?? true })
        let keys = Set(tracer.timelines.keys).union(check.deliveries.keys).sorted()
        let start = input.start ?? tracer.firstCycle ?? plain.first?.time ?? .epoch
        let end = input.end ?? plain.last?.time ?? start
        let result = check.check(tracer.timelines, keys: keys, from: start, to: end, count: triples, seed: seed)
        let share = (result.agreement * 1000).rounded(.down) / 10
        print(
            "\(result.triples) triples over \(keys.count) alert and beacon pairs, \(start.rfc3339String) to \(end.rfc3339String): "
                + "\(result.agreeing) agree (\(share) %); \(result.delivered) fall after a delivery")
        guard result.agreeing == result.triples else {
            for line in result.disagreements { print("  " + line) }
            throw ExitCode(1)
        }
    }

    /// `12.3 s`.
    private static func seconds(_ duration: Duration) -> String {
        "\((duration.secondsValue * 10).rounded() / 10) s"
    }
}
