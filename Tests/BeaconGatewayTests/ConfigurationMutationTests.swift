import BeaconDaemonConfiguration
import BeaconGateway
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconSite
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Testing

/// The bundled configurations and scenarios, mutated a few hundred ways (seeded, so every run
/// tries the same files) and read as `beacond check-config` and `beacond simulate` read them:
/// every error names the file and a line (`file:line`), and nothing crashes. Issue 26 found 14 of
/// 200 mutated files refused with no line.
@Suite("Configuration errors: every mutated file is refused at a file:line")
struct ConfigurationMutationTests {
    /// How a file is read.
    enum Reader: Sendable {
        /// `beacond check-config`: a gateway's or a hub's configuration.
        case checkConfig
        /// `beacond simulate`: a scenario, and for a site the hub built with its alerts (`alerts`).
        case scenario(alerts: String?)
        /// `beacond simulate`'s alerts file; for a site's (`scenario`), the site's hub is built with it.
        case alerts(siteScenario: String?)

        /// The other file read with this one.
        var companions: [String] {
            switch self {
            case .checkConfig: []
            case .scenario(let alerts): alerts.map { [$0] } ?? []
            case .alerts(let siteScenario): siteScenario.map { [$0] } ?? []
            }
        }
    }

    /// A file to mutate.
    struct Sample: CustomStringConvertible, Sendable {
        let name: String
        let text: String
        let reader: Reader
        var description: String { name }
    }

    static let scenarios = TestPaths.repositoryRoot + "/Simulator/Scenarios/"

    /// The deployed gateway configuration, the hub configuration of Docs/Site.md, and every bundled
    /// scenario and alerts file.
    static let samples: [Sample] = {
        var samples: [Sample] = []
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        // check-config checks that the state file's directory takes files: the package's
        // /var/lib/beacond is not on a development machine, the temporary directory is.
        let stateHere = { (text: String) in
            text.replacingOccurrences(of: "/var/lib/beacond/", with: FileManager.default.temporaryDirectory.path + "/")
        }
        samples.append(
            Sample(
                name: "gateway.yaml", text: stateHere(read(TestPaths.repositoryRoot + "/deploy/gateway.yaml")),
                reader: .checkConfig))
        samples.append(Sample(name: "hub.yaml", text: stateHere("source: hub\n" + hubExample), reader: .checkConfig))
        let files = (try? FileManager.default.contentsOfDirectory(atPath: scenarios).sorted()) ?? []
        for file in files where file.hasSuffix(".yaml") {
            let text = read(scenarios + file)
            if file.hasSuffix(".alerts.yaml") {
                let scenario = scenarios + file.replacingOccurrences(of: ".alerts.yaml", with: ".yaml")
                let isSite = read(scenario).contains("\nrooms:")
                samples.append(Sample(name: file, text: text, reader: .alerts(siteScenario: isSite ? scenario : nil)))
            } else {
                let alerts = scenarios + file.replacingOccurrences(of: ".yaml", with: ".alerts.yaml")
                let isSite = text.contains("\nrooms:")
                samples.append(Sample(name: file, text: text, reader: .scenario(alerts: isSite ? alerts : nil)))
            }
        }
        return samples
    }()

    /// The hub's configuration in Docs/Site.md (the YAML block with `gateways:` and `hub:`).
    static var hubExample: String {
        let guide = (try? String(contentsOfFile: TestPaths.repositoryRoot + "/Docs/Site.md", encoding: .utf8)) ?? ""
        let blocks = guide.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        return blocks.first { $0.contains("\ngateways:") && $0.contains("\nhub:") } ?? ""
    }

    /// Reads `path` as `reader` says; the error's description, or `nil` when the file is accepted.
    static func problem(reading path: String, as reader: Reader) -> String? {
        do {
            switch reader {
            case .checkConfig:
                _ = try checkGatewayConfiguration(path: path)
            case .scenario(let alerts):
                let scenario = try Scenario.load(path: path)
                if let alerts { try buildSite(scenario, alerts: alerts) }
            case .alerts(let siteScenario):
                if let siteScenario {
                    try buildSite(try Scenario.load(path: siteScenario), alerts: path)
                } else {
                    // A gateway scenario's phones enroll with their scenario keys (irk: scenario), as
                    // `beacond simulate` reads them.
                    let name = String(path.split(separator: "/").last ?? "").replacingOccurrences(
                        of: ".alerts.yaml", with: ".yaml")
                    let keys =
                        (try? Scenario.load(path: TestPaths.repositoryRoot + "/Simulator/Scenarios/" + name))?.phoneKeys ?? [:]
                    _ = try AlertPipeline(
                        configuration: GatewayConfiguration.load(path: path, scenarioPhoneKeys: keys), registry: .builtIn())
                }
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A site's gateways and hub, as `beacond simulate` builds them.
    static func buildSite(_ scenario: Scenario, alerts: String) throws {
        let configuration = try GatewayConfiguration.load(path: alerts, scenarioPhoneKeys: scenario.phoneKeys)
        _ = try SiteSimulation(
            scenario: scenario, ranging: configuration.ranging, fusion: configuration.siteFusion ?? SiteFusionConfiguration(),
            alerts: try configuration.pipelineAlerts(), registry: .builtIn())
    }

    /// Whether `message` names `path` followed by `:` and a line number.
    static func isLocated(_ message: String, in path: String) -> Bool {
        var rest = message[...]
        while let found = rest.range(of: path + ":") {
            if rest[found.upperBound...].first?.isNumber == true { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }

    @Test("the bundled files are accepted as they are (the mutations start from good files)", arguments: samples)
    func unmutated(_ sample: Sample) throws {
        let directory = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(sample.name).path
        try sample.text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(!sample.text.isEmpty)
        #expect(Self.problem(reading: path, as: sample.reader) == nil)
    }

    @Test("30 seeded mutations of each file: every error is at file:line", arguments: samples)
    func mutated(_ sample: Sample) throws {
        let directory = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(sample.name).path
        // The seed is the file's name, so each file gets its own mutations, the same every run.
        var mutator = ConfigurationMutator(
            seed: sample.name.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 })
        var refused = 0
        for mutation in mutator.mutations(of: sample.text, count: 30) {
            try Data(mutation.bytes).write(to: URL(fileURLWithPath: path))
            guard let message = Self.problem(reading: path, as: sample.reader) else { continue }
            refused += 1
            // A site's scenario and alerts are read together: an error may be at the other's line
            // (an alert naming a room the mutated scenario lost).
            let located = ([path] + sample.reader.companions).contains { Self.isLocated(message, in: $0) }
            #expect(located, "\(sample.name), \(mutation): \(message)")
        }
        // Most mutations break the file: the check above is not vacuous.
        #expect(refused >= 10)
    }

    static func workDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-mutation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
