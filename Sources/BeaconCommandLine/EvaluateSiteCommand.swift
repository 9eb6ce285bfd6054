import ArgumentParser
import BeaconCore
import BeaconOfflineRuns
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `beacond evaluate-site [--data DIR] [--scenario FILE]`: every site recording shipped and the
/// bundled simulated shop, each self-calibrated and with the fixed defaults, against the plain
/// rules; prints the table of Docs/Site.md.
struct EvaluateSiteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-site",
        abstract: "Scores the site fusion on every site recording and the simulated shop, with and without self-calibration.",
        discussion: """
            Each directory under --data with a site.yaml and a truth.jsonl is replayed twice (self-calibrated: a first \
            pass fits the radio model; fixed: the defaults), and the gateways' evidence is also scored by two plain \
            rules (the strongest gateway's room; the weighted centroid of the four strongest gateways). Each simulated \
            site runs with its alerts file's hub: values (as configured), and without them, self-calibrated and fixed. \
            Run it from a checkout of beacond, or give --data and --scenario. Prints a Markdown table.
            """)

    @Option(help: ArgumentHelp("The site recordings (default: Data/site under the working directory).", valueName: "dir"))
    var data = "Data/site"

    @Option(
        help: ArgumentHelp(
            "Site scenarios to simulate too, each with its NAME.alerts.yaml if there is one (default: the bundled "
                + "site.yaml, site-calibration.yaml, two-floors.yaml, site-espresense.yaml, hall-session.yaml, "
                + "hall-aisles.yaml and hall-walks.yaml); repeat the option for several.",
            valueName: "file"))
    var scenario: [String] = [
        "Simulator/Scenarios/site.yaml", "Simulator/Scenarios/site-calibration.yaml", "Simulator/Scenarios/two-floors.yaml",
        "Simulator/Scenarios/site-espresense.yaml", "Simulator/Scenarios/hall-session.yaml",
        "Simulator/Scenarios/hall-aisles.yaml", "Simulator/Scenarios/hall-walks.yaml",
    ]

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        var status = stat()
        guard stat(data, &status) == 0 else {
            throw ValidationError(
                "no \(data) here: run from a checkout of beacond, or give --data DIR (directories with a site.yaml and a truth.jsonl)"
            )
        }
    }

    func run() async throws {
        let registry = try plugins.registry()
        // Each run as it starts, on standard error (the table goes to standard output at the end).
        let started = ContinuousClock.now
        let say = { (run: String) in printError("evaluate-site: \(run) (\((ContinuousClock.now - started).approximate) so far)") }
        var rows = try await SiteEvaluation.recordings(in: data, registry: registry, progress: say)
        for path in scenario {
            let stem = path.hasSuffix(".yaml") ? String(path.dropLast(5)) : path
            var status = stat()
            let alerts = stat(stem + ".alerts.yaml", &status) == 0 ? stem + ".alerts.yaml" : nil
            let name = String(stem.split(separator: "/").last ?? "scenario")
            rows += try SiteEvaluation.scenario(
                path, alerts: alerts, name: "\(name) (simulated)", registry: registry, progress: say)
        }
        print(SiteEvaluation.table(rows), terminator: "")
    }
}
