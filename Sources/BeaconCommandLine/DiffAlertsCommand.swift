import ArgumentParser
import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconOfflineRuns
import BeaconPipeline

/// `beacond diff-alerts OLD.yaml NEW.yaml (--scenario S | --capture C… | --site SITE)`: what
/// replacing one alert set with another would change on an input — deliveries added, dropped,
/// earlier, later — before it goes live.
struct DiffAlertsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff-alerts",
        abstract: "Compares two alert sets on a simulation or a recording: deliveries added, dropped, earlier, later.",
        discussion: """
            Runs the input twice, on its own time, once with each configuration's alerts (their ranging and \
            site settings are the old file's), and pairs the first deliveries (not reminders) of each alert \
            and beacon that are at most --within apart. Prints a count per alert, then every difference \
            (--all: every delivery), or --json. Exit status 0 when nothing differs, 1 when something does, \
            2 for options or input that cannot run.
            """
    )

    @Argument(help: ArgumentHelp("The alert set in force (a gateway's, a hub's or an alerts file).", valueName: "old.yaml"))
    var old: String

    @Argument(help: ArgumentHelp("The candidate alert set.", valueName: "new.yaml"))
    var new: String

    @OptionGroup var input: OfflineInputOptions

    @Option(
        help: ArgumentHelp("How far apart two deliveries may be and still be the same alert (default 5m).", valueName: "duration")
    )
    var within: String = "5m"

    @Flag(help: "List every delivery, the unchanged too.")
    var all = false

    @Flag(help: "Print one JSON object.")
    var json = false

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        guard let window = Duration(parsing: within), window >= .zero else {
            throw ValidationError("--within takes a duration such as 30s or 5m, not '\(within)'")
        }
    }

    func run() async throws {
        let input = try self.input.resolve()
        let registry = try plugins.registry()
        let (before, after): (GatewayConfiguration, GatewayConfiguration)
        do {
            before = try GatewayConfiguration.load(path: old)
            var candidate = before
            candidate.alerts = try GatewayConfiguration.load(path: new).alerts
            after = candidate
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        var oldEvents: [AlertEvent] = []
        var newEvents: [AlertEvent] = []
        do {
            try await input.run(configuration: before, registry: registry, prepare: { _ in }) { oldEvents.append($0.event) }
            try await input.run(configuration: after, registry: registry, prepare: { _ in }) { newEvents.append($0.event) }
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let difference = AlertSetDifference(old: oldEvents, new: newEvents, within: Duration(parsing: within)!)
        print(json ? Self.json(difference) : Self.text(difference, all: all), terminator: "")
        if !difference.differences.isEmpty { throw ExitCode(1) }
    }

    static func text(_ difference: AlertSetDifference, all: Bool) -> String {
        let kinds = AlertSetDifference.Change.Kind.allCases
        let width = max(5, difference.counts.map(\.alertID.count).max() ?? 0)
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        var lines = [pad("alert", width) + kinds.map { "  \($0.rawValue)" }.joined()]
        for (alertID, counts) in difference.counts {
            lines.append(pad(alertID, width) + kinds.map { "  " + pad(String(counts[$0] ?? 0), $0.rawValue.count) }.joined())
        }
        if difference.counts.isEmpty { lines.append("(no deliveries with either set)") }
        let listed = all ? difference.changes : difference.differences
        if !listed.isEmpty {
            lines.append("")
            lines += listed.map(\.summary)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ difference: AlertSetDifference) -> String {
        var json = JSONWriter()
        json.object { object in
            object.key("alerts")
            difference.writeCounts(to: &object)
            object.key("differences")
            AlertSetDifference.writeChanges(difference.differences, to: &object)
        }
        return json.string + "\n"
    }
}
