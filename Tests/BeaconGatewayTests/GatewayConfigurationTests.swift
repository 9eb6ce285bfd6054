import BeaconCore
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

    @Test("Mistakes are reported with file, line and what would be right", arguments: [
        ("alerts:\n  - id: a\n    strategy: time\n    contnet: {title: x}\n",
         "gw.yaml:4", "unknown key 'contnet'", "did you mean 'content'?"),
        ("alerts:\n  - id: a\n    match: {uuid: not-a-uuid}\n    strategy: time\n",
         "gw.yaml:3", "expected a UUID", "not-a-uuid"),
        ("alerts:\n  - id: a\n    match: {uuid: 74278BDA-B644-4520-8F0C-720EAF059935, minor: 3}\n    strategy: time\n",
         "gw.yaml:3", "'minor' needs 'major'", "alerts[0].match"),
        ("alerts:\n  - id: a\n    strategy: time\n  - id: a\n    strategy: time\n",
         "gw.yaml:4", "duplicate alert id 'a'", "unique"),
        ("alerts:\n  - id: a\n", "gw.yaml:2", "missing 'strategy'", "alerts[0]"),
        ("alerts:\n  - id: a\n    match: {uuid: 74278BDA-B644-4520-8F0C-720EAF059935, major: 70000}\n    strategy: t\n",
         "gw.yaml:3", "out of range 0…65535", "major"),
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
