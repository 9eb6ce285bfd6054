import ArgumentParser
import BeaconCore
import BeaconDaemonConfiguration
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconStrategyKit

#if canImport(Glibc)
import Glibc
#endif

/// `beacond tune --alert A (--scenario S | --capture C… --truth T)`: searches an alert's
/// parameters against the truth and prints the trade-off, best first under an objective.
struct TuneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Searches an alert's parameters against the ground truth: precision, recall and latency per candidate.",
        discussion: """
            Runs the input once per seed (a scenario) or once (recordings with --truth), with every candidate \
            of the alert beside each other on the same ranging — ranging runs once, the strategies and the \
            engine once per candidate, on --threads threads — and scores each candidate's first deliveries \
            against the true visits as `beacond score` does. A share of the (run, beacon) pairs (--hold-back) \
            is kept out of the ranking and scored beside it, so a winner fitted to noise shows.
            Candidates: the alert as configured first, then every combination of the varied parameters' \
            values, or --candidates of them drawn with --seed when there are more. --vary NAME tries the \
            values the strategy declares (`beacond strategies` lists them); --vary NAME=v1,v2,… the given \
            ones. Without --vary, every parameter with declared values is varied.
            The ranking: candidates meeting the objective (--min-precision, --max-latency at --percentile) \
            first, by recall, then precision, then latency. Deterministic for a seed, whatever the thread count.
            Exit status 0 when a candidate meets the objective, 1 when none does, 2 for options or input that \
            cannot run.
            """
    )

    @OptionGroup var alertConfig: AlertConfigOptions

    @OptionGroup var input: OfflineInputOptions

    @Option(help: ArgumentHelp("The truth of --capture recordings (simulate --truth's JSON lines).", valueName: "file"))
    var truth: String?

    @Option(
        help: ArgumentHelp(
            "A parameter to vary: NAME (its declared values) or NAME=v1,v2,… (repeatable).", valueName: "name[=values]"))
    var vary: [String] = []

    @Option(help: "The most candidates to run, the configured values included.")
    var candidates = 50

    @Option(help: "Simulations of the scenario to run, with seeds from its own upwards.")
    var seeds = 1

    @Option(help: "The seed of the candidates' draw and of the held-back split.")
    var seed: UInt64 = 1

    @Option(help: "The share of (run, beacon) pairs held back from the ranking, 0 to 0.9.")
    var holdBack = 0.25

    @Option(help: "The objective's lowest precision.")
    var minPrecision = 0.99

    @Option(help: ArgumentHelp("The objective's highest latency at --percentile, or none.", valueName: "duration"))
    var maxLatency = "90s"

    @Option(help: "The latency percentile bounded and shown.")
    var percentile = 95.0

    @Option(help: "A true visit: within this many metres of the gateway (scenarios).")
    var radius = 3.0

    @Option(help: ArgumentHelp("A true visit: at least this long (scenarios).", valueName: "duration"))
    var minDuration = "60s"

    @Option(help: ArgumentHelp("How long after a visit ends an alert still counts for it.", valueName: "duration"))
    var tolerance = "30s"

    @Option(help: "Threads the candidates run on (default: the processors online; 1 with --plugin).")
    var threads: Int?

    @Option(help: "Rows to print (0: all).")
    var top = 15

    @Flag(help: "Print one JSON object.")
    var json = false

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        guard candidates >= 1 else { throw ValidationError("--candidates must be at least 1") }
        guard (1...1000).contains(seeds) else { throw ValidationError("--seeds must be 1 to 1000") }
        guard (0...0.9).contains(holdBack) else { throw ValidationError("--hold-back must be a share from 0 to 0.9") }
        guard (0...1).contains(minPrecision) else { throw ValidationError("--min-precision must be from 0 to 1") }
        guard percentile > 0, percentile <= 100 else { throw ValidationError("--percentile must be above 0 and at most 100") }
        guard radius > 0 else { throw ValidationError("--radius must be positive") }
        for (name, text) in [("--min-duration", minDuration), ("--tolerance", tolerance)] where Duration(parsing: text) == nil {
            throw ValidationError("\(name) takes a duration such as 30s or 2m, not '\(text)'")
        }
        if maxLatency != "none", Duration(parsing: maxLatency) == nil {
            throw ValidationError("--max-latency takes a duration such as 90s, or none, not '\(maxLatency)'")
        }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    func run() async throws {
        let input = try self.input.resolve()
        let registry = try plugins.registry()
        let (configuration, base) = try alertConfig.load(for: input)
        let tuned = try tunedParameters(of: base, registry: registry)
        let runs = try self.runs(input, configuration: configuration)
        let objective = TuningObjective(
            minimumPrecision: minPrecision, maximumLatency: maxLatency == "none" ? nil : Duration(parsing: maxLatency),
            latencyPercentile: percentile / 100)
        let tuner = AlertTuner(
            base: base,
            candidates: TuningCandidate.candidates(
                parameters: tuned.parameters, configured: tuned.configured, limit: candidates, seed: seed),
            registry: registry, objective: objective, heldBackShare: holdBack, splitSeed: seed,
            tolerance: Duration(parsing: tolerance)!, threads: threads ?? defaultThreads)
        let report: TuningReport
        do {
            report = try await tuner.tune(runs: runs) { done in
                if !json, runs.count > 1 { printError("run \(done) of \(runs.count) done") }
            }
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let names = tuned.parameters.map(\.name)
        print(json ? TuningReportRendering.json(report) : TuningReportRendering.text(report, parameters: names, top: top))
        if report.winner == nil { throw ExitCode(1) }
    }

    /// The processors online — or one when plugins are loaded: the plugin contract does not
    /// promise that a plugin's instances may run at the same time (`--threads` says otherwise).
    private var defaultThreads: Int {
        plugins.paths.isEmpty ? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) : 1
    }

    /// The varied parameters (from --vary, or every declared range) and their configured values.
    private func tunedParameters(
        of base: PipelineAlert, registry: StrategyRegistry
    ) throws -> (parameters: [TunedParameter], configured: [String: ParameterValue]) {
        guard let registration = registry.registration(for: base.strategy) else {
            printError("error: no strategy '\(base.strategy)'")
            throw ExitCode(2)
        }
        let declared = registration.parameters
        var parameters: [TunedParameter] = []
        if vary.isEmpty {
            parameters = declared.compactMap { declaration in
                declaration.tuning.map { TunedParameter(name: declaration.name, values: $0.values) }
            }
            guard !parameters.isEmpty else {
                printError(
                    "error: the strategy '\(base.strategy)' declares no values to tune; give them with --vary NAME=v1,v2,…")
                throw ExitCode(2)
            }
        }
        for text in vary {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard !parts[0].isEmpty else {
                printError("error: --vary '\(text)': give a parameter's name, NAME or NAME=v1,v2,…")
                throw ExitCode(2)
            }
            guard !parameters.contains(where: { $0.name == parts[0] }) else {
                printError("error: --vary \(parts[0]) is given twice; give its values once")
                throw ExitCode(2)
            }
            guard let declaration = declared.first(where: { $0.name == parts[0] }) else {
                printError(
                    "error: --vary \(text): the strategy '\(base.strategy)' has no parameter '\(parts[0])'; its parameters: \(declared.map(\.name).joined(separator: ", "))"
                )
                throw ExitCode(2)
            }
            let values: [ParameterValue]
            if parts.count == 2 {
                do {
                    values = try parts[1].split(separator: ",").map { raw throws(StrategyConfigurationError) in
                        // Spaces around the commas are not part of a value; inside one they are.
                        let value = String(raw.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
                        return try declaration.read(StrategyValue(inferringFrom: value), strategy: base.strategy)
                    }
                } catch {
                    printError("error: --vary \(text): \(error)")
                    throw ExitCode(2)
                }
            } else if let range = declaration.tuning {
                values = range.values
            } else {
                printError(
                    "error: --vary \(text): '\(declaration.name)' declares no values to tune; give them: --vary \(declaration.name)=v1,v2,…"
                )
                throw ExitCode(2)
            }
            guard !values.isEmpty else {
                printError("error: --vary \(text) gives no values")
                throw ExitCode(2)
            }
            parameters.append(TunedParameter(name: declaration.name, values: values))
        }
        var configured: [String: ParameterValue] = [:]
        for parameter in parameters {
            let declaration = declared.first { $0.name == parameter.name }!
            if let raw = base.parameters[parameter.name] {
                configured[parameter.name] = try? declaration.read(raw, strategy: base.strategy)
            } else {
                configured[parameter.name] = declaration.defaultValue
            }
        }
        return (parameters, configured)
    }

    /// The runs: one simulation per seed, or the recordings against --truth.
    private func runs(_ input: OfflineInput, configuration: GatewayConfiguration) throws -> [TuningRun] {
        if configuration.source == .hub {
            printError("error: tune runs a gateway's alerts; this configuration is a site hub's (source: hub)")
            throw ExitCode(2)
        }
        switch input.kind {
        case .scenario(let scenario, _):
            guard !scenario.isSite else {
                printError(
                    "error: tune scores visits at one gateway; a site scenario's rooms are not scored by tune — tune the alert on a one-gateway scenario"
                )
                throw ExitCode(2)
            }
            let definition = VisitDefinition(radius: radius, minimumDuration: Duration(parsing: minDuration)!)
            return (0..<UInt64(seeds)).map {
                TuningRun.simulation(
                    scenario: scenario, seed: scenario.seed &+ $0, configuration: configuration, definition: definition)
            }
        case .captures(let paths):
            guard let truth else {
                printError("error: --capture needs --truth FILE: the true visits to score against")
                throw ExitCode(2)
            }
            let visits: [Scoring.Visit]
            do {
                visits = try Scoring.readVisits(path: truth)
            } catch {
                printError("error: \(error)")
                throw ExitCode(2)
            }
            return [TuningRun.captures(paths, configuration: configuration, visits: visits)]
        case .site:
            printError("error: tune scores visits at one gateway; a site's recordings are not scored by tune")
            throw ExitCode(2)
        }
    }
}
