import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconRanging
import BeaconStrategies
import BeaconTestSupport
import Foundation
import FoundationEssentials
import Testing

@testable import BeaconGateway

@Suite("Gateway configuration")
struct GatewayConfigurationTests {
    static let example = """
        alerts:
          - id: lobby-dwell
            match: {uuid: 74278BDA-B644-4520-8F0C-720EAF059935}   # major/minor optional
            strategy: time
            parameters: {dwell: 60s, gap: 10s, maxTimeBeforeReset: 60s}
            content: {title: Welcome, message: Hello}
          - id: desk
            match: {uuid: 74278bdab64445208f0c720eaf059935, major: 7, minor: 9}
            strategy: proximity
            content:
              title: Desk
              identifier: rec-42
              data: {room: "12"}
        """

    @Test("The issue's minimal configuration is accepted with every field")
    func minimalExample() throws {
        let config = try GatewayConfiguration(node: ConfigNode(yaml: Self.example, file: "gw.yaml"))
        #expect(config.alerts.map(\.id) == ["lobby-dwell", "desk"])
        let uuid = try #require(UUID(uuidString: "74278BDA-B644-4520-8F0C-720EAF059935"))
        #expect(config.alerts[0].match == BeaconMatch(.uuid(uuid, major: nil, minor: nil)))
        #expect(config.alerts[0].strategy == "time")
        #expect(try config.alerts[0].parameters?.required("dwell").duration() == .seconds(60))
        #expect(config.alerts[0].content == AlertContent(title: "Welcome", message: "Hello"))
        #expect(config.alerts[1].match == BeaconMatch(.uuid(uuid, major: 7, minor: 9)))
        #expect(config.alerts[1].content.identifier == "rec-42")
        #expect(config.alerts[1].content.data == ["room": "12"])
    }

    @Test(
        "Mistakes are reported with file, line and what would be right",
        arguments: [
            (
                "alerts:\n  - id: a\n    strategy: time\n    contnet: {title: x}\n",
                "gw.yaml:4", "unknown key 'contnet'", "did you mean 'content'?"
            ),
            (
                "alerts:\n  - id: a\n    match: {uuid: not-a-uuid}\n    strategy: time\n",
                "gw.yaml:3", "expected a UUID", "not-a-uuid"
            ),
            (
                "alerts:\n  - id: a\n    match: {uuid: 74278BDA-B644-4520-8F0C-720EAF059935, minor: 3}\n    strategy: time\n",
                "gw.yaml:3", "'minor' needs 'major'", "alerts[0].match"
            ),
            (
                "alerts:\n  - id: a\n    strategy: time\n  - id: a\n    strategy: time\n",
                "gw.yaml:4", "duplicate alert id 'a'", "unique"
            ),
            ("alerts:\n  - id: a\n", "gw.yaml:2", "missing 'strategy'", "alerts[0]"),
            (
                "alerts:\n  - id: a\n    match: {uuid: 74278BDA-B644-4520-8F0C-720EAF059935, major: 70000}\n    strategy: t\n",
                "gw.yaml:3", "out of range 0…65535", "major"
            ),
            ("alerts: [\n", "gw.yaml:2", "invalid YAML", "did not find expected node"),
        ])
    func errors(yaml: String, place: String, what: String, hint: String) {
        do {
            _ = try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "gw.yaml"))
            Issue.record("accepted invalid configuration")
        } catch {
            let text = error.description
            #expect(text.hasPrefix(place), "\(text)")
            #expect(text.contains(what), "\(text)")
            #expect(text.contains(hint), "\(text)")
        }
    }

    @Test("A missing file names the path and what to check")
    func missingFile() {
        #expect(throws: ConfigurationError.self) { try GatewayConfiguration.load(path: "/nonexistent/gw.yaml") }
        do { _ = try GatewayConfiguration.load(path: "/nonexistent/gw.yaml") } catch {
            #expect(error.description.contains("/nonexistent/gw.yaml: cannot read the file"))
        }
    }
}

@Suite("Gateway configuration: ranging and policy sections")
struct GatewayConfigurationSectionTests {
    @Test("The ranging section sets every knob and regions exit on their own timeouts")
    func rangingSection() throws {
        let config = try GatewayConfiguration(
            node: ConfigNode(
                yaml: """
                    ranging:
                      cycle: 2s
                      grace: 4s
                      retention: 40s
                      filter: kalman
                      spikeClamp: 8
                      pathLossExponent: 2.2
                      measuredPower: -61
                      proximity: {immediate: 0.4, near: 2.5}
                      exitTimeout: 12s
                      regions:
                        - {id: lobby, match: {uuid: 74278BDA-B644-4520-8F0C-720EAF059935, major: 1}, exitTimeout: 20s}
                        - {id: all}
                    """))
        let ranging = config.ranging
        #expect(ranging.cycleLength == .seconds(2) && ranging.missedScanGrace == .seconds(4))
        #expect(ranging.retention == .seconds(40) && ranging.spikeClamp == 8)
        #expect(ranging.filter.name == "kalman")
        guard case .logDistance(let model) = ranging.distanceModel else {
            Issue.record("not log-distance")
            return
        }
        #expect(model.exponent == 2.2)
        #expect(ranging.defaultMeasuredPower == -61)
        #expect(ranging.proximity.immediateBelow == 0.4 && ranging.proximity.nearBelow == 2.5)
        #expect(ranging.defaultExitTimeout == .seconds(12))
        #expect(ranging.regions.map(\.id) == ["lobby", "all"])
        #expect(ranging.regions[0].exitTimeout == .seconds(20) && ranging.regions[1].exitTimeout == nil)
        let uuid = try #require(UUID(uuidString: "74278BDA-B644-4520-8F0C-720EAF059935"))
        #expect(ranging.regions[0].contains(.iBeacon(uuid: uuid, major: 1, minor: 9)))
        #expect(!ranging.regions[0].contains(.iBeacon(uuid: uuid, major: 2, minor: 9)))
    }

    @Test(
        "Ranging mistakes name the key and the choices",
        arguments: [
            ("ranging:\n  filter: median\n", "unknown filter 'median'", "arma"),
            ("ranging:\n  cycle: fast\n", "ranging.cycle", "expected a duration"),
            ("ranging:\n  regions:\n    - {id: a}\n    - {id: a}\n", "duplicate region id 'a'", "ranging.regions[1]"),
            ("ranging:\n  distanceModel: curve-fitted\n  pathLossExponent: 2\n", "log-distance model only", "pathLossExponent"),
        ])
    func rangingErrors(yaml: String, what: String, hint: String) {
        #expect(throws: ConfigurationError.self) { try GatewayConfiguration(node: ConfigNode(yaml: yaml)) }
        do { _ = try GatewayConfiguration(node: ConfigNode(yaml: yaml)) } catch {
            #expect(error.description.contains(what), "\(error)")
            #expect(error.description.contains(hint), "\(error)")
        }
    }

    @Test("The documented alert-engine example (Docs/AlertEngine.md) is accepted as written")
    func documentedEngineExample() throws {
        let doc = try String(contentsOfFile: TestPaths.repositoryRoot + "/Docs/AlertEngine.md", encoding: .utf8)
        let start = try #require(doc.range(of: "```yaml\n"))
        let end = try #require(doc.range(of: "```", range: start.upperBound..<doc.endIndex))
        let yaml = String(doc[start.upperBound..<end.lowerBound])
        let config = try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "Docs/AlertEngine.md"))
        let alert = try #require(config.alerts.first)
        #expect(alert.policy.repeatInterval == .daily)
        #expect(alert.policy.cooldown == .seconds(3600))
        #expect(alert.policy.cancelOn == [.regionExit("lobby"), .beaconExit, .alertDelivered("vip-welcome"), .event("closing")])
        #expect(alert.policy.window?.timeZoneName == "Europe/Paris")
        #expect(alert.policy.firstStart == .quiet)
    }

    /// Every `yaml` block of Docs/AlertEngine.md that has an `alerts:` list, each with the line it
    /// starts on (1-based) and its text.
    static func documentedAlertExamples() throws -> [(line: Int, yaml: String)] {
        let doc = try String(contentsOfFile: TestPaths.repositoryRoot + "/Docs/AlertEngine.md", encoding: .utf8)
        var examples: [(line: Int, yaml: String)] = []
        var block: (line: Int, lines: [Substring])?
        for (index, line) in doc.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var open = block {
                if line.hasPrefix("```") {
                    let yaml = open.lines.joined(separator: "\n") + "\n"
                    if open.lines.contains(where: { $0 == "alerts:" }) { examples.append((open.line, yaml)) }
                    block = nil
                } else {
                    open.lines.append(line)
                    block = open
                }
            } else if line == "```yaml" {
                block = (index + 2, [])
            }
        }
        return examples
    }

    @Test(
        "Every alert example in Docs/AlertEngine.md is accepted as written and builds a pipeline; the cancellation one routes its callback, the priority one has its levels"
    )
    func everyDocumentedAlertExample() throws {
        let examples = try Self.documentedAlertExamples()
        #expect(examples.count >= 5, "\(examples.count) examples")
        var routesCancellation = false
        var levels: [AlertPriority] = []
        var variesByTurn = false
        // The credentials and certificate files the remote examples name, beside the "configuration file".
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["prod.token", "staging.key", "gateway.pem", "gateway.key", "config-ca.pem"] {
            try "secret".write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let file = directory.appendingPathComponent("AlertEngine.md").path
        for example in examples {
            do {
                let config = try GatewayConfiguration(node: ConfigNode(yaml: example.yaml, file: file))
                // An example about rooms is for a site (its layout names them): one gateway's
                // pipeline would refuse it for want of the rooms.
                if !example.yaml.contains("strategy: moved") {
                    _ = try AlertPipeline(configuration: config, registry: .builtIn())
                }
                if let desk = config.alerts.first(where: { $0.id == "desk-wait" }) {
                    variesByTurn = desk.rule.variations?.pick == .inTurn && desk.rule.variations?.messages.count == 3
                }
                if let fall = config.alerts.first(where: { $0.id == "fall" }),
                    let newsletter = config.alerts.first(where: { $0.id == "newsletter" })
                {
                    levels = [fall.policy.priority, newsletter.policy.priority]
                }
                if let welcome = config.alerts.first(where: { $0.id == "welcome" }),
                    welcome.policy.callbacks.destination(for: .cancelled) == "https://crm.example.org/beacond/cancelled"
                {
                    routesCancellation =
                        welcome.policy.callbacks.destination(for: .delivered) == "https://crm.example.org/beacond/events"
                }
            } catch {
                Issue.record("the example at Docs/AlertEngine.md:\(example.line) is refused: \(error)")
            }
        }
        #expect(routesCancellation, "the cancellation example's callbackCancelled")
        #expect(levels == [.critical, .passive], "the priority example's levels")
        #expect(variesByTurn, "the content example's three messages in turn")
    }

    @Test("Giving both delay and notBefore is refused at the alert's line")
    func delayAndNotBefore() {
        let yaml = "alerts:\n  - id: a\n    strategy: time\n    delay: 10m\n    notBefore: \"2025-06-01T08:00:00Z\"\n"
        do {
            _ = try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "gw.yaml"))
            Issue.record("accepted both delay and notBefore")
        } catch {
            #expect(error.description.hasPrefix("gw.yaml:2"), "\(error)")
            #expect(error.description.contains("delay") && error.description.contains("notBefore"), "\(error)")
        }
    }
}

@Suite("README")
struct ReadmeConfigurationTests {
    @Test("The README's configuration example is accepted and builds a pipeline")
    func readmeExample() throws {
        let readme = try String(contentsOfFile: TestPaths.repositoryRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.range(of: "## Configuration"))
        let start = try #require(readme.range(of: "```yaml\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let config = try GatewayConfiguration(
            node: ConfigNode(
                yaml: String(readme[start.upperBound..<end.lowerBound]),
                file: "README.md"))
        #expect(config.alerts.map(\.id) == ["lobby-dwell"])
        #expect(config.ranging.regions.map(\.id) == ["lobby"])
        _ = try AlertPipeline(configuration: config, registry: .builtIn())
    }
}
