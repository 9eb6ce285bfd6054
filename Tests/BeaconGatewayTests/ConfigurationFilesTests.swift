import BeaconConfiguration
import BeaconTestSupport
import Foundation
import Testing

/// The files a configuration names: relative paths resolve against the configuration file's
/// directory (a daemon under systemd runs in `/`), and a file that cannot be read is named with
/// its `file:line` and why, in words — never a platform error dump.
@Suite("Files named in a configuration")
struct ConfigurationFilesTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func run(_ arguments: [String], in directory: String = "/") async throws -> CommandRun {
        try await CommandRun.run(TestPaths.beacond, arguments, directory: directory)
    }

    @Test("relative paths resolve against the file's directory; absolute, '-' and text documents stay as written")
    func resolve() {
        #expect(ConfigNode.resolve("state.sqlite", against: "/etc/beacond/gateway.yaml") == "/etc/beacond/state.sqlite")
        #expect(ConfigNode.resolve("../captures/a.btsnoop", against: "site/site.yaml") == "site/../captures/a.btsnoop")
        #expect(
            ConfigNode.resolve("/var/lib/beacond/s.sqlite", against: "/etc/beacond/gateway.yaml") == "/var/lib/beacond/s.sqlite")
        #expect(ConfigNode.resolve("-", against: "/etc/beacond/gateway.yaml") == "-")
        #expect(ConfigNode.resolve("state.sqlite", against: "gateway.yaml") == "state.sqlite")
        #expect(ConfigNode.resolve("state.sqlite", against: "<string>") == "state.sqlite")
        #expect(ConfigNode.resolve("state.sqlite", against: "https://config.example/alerts.yaml") == "state.sqlite")
    }

    @Test("beacond run started in / reads its capture and writes its state and events next to its configuration")
    func daemonInRoot() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(
            atPath: TestPaths.capture("hci_2k_seed1.btsnoop"), toPath: directory.appendingPathComponent("air.btsnoop").path)
        let file = directory.appendingPathComponent("gateway.yaml")
        try """
        source: {replay: air.btsnoop}
        state: state/beacond.sqlite
        sinks:
          - {type: jsonl, path: events.jsonl}
        alerts:
          - {id: any, match: any, strategy: proximity, parameters: {proximity: far}}

        """.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("state"), withIntermediateDirectories: false)
        let check = try await Self.run(["check-config", file.path])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("state \(directory.path)/state/beacond.sqlite"), "\(check.standardOutput)")
        let run = try await Self.run(["run", "--config", file.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("state/beacond.sqlite").path))
        let events = try String(contentsOf: directory.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(events.contains(#""event":"delivered""#), "the alert reached the sink next to the configuration")
    }

    @Test("a file that cannot be read is named at its line, with why, and what a relative path is read from")
    func unreadable() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("gateway.yaml")
        try "source: {replay: missing.btsnoop}\nsinks: []\nalerts: []\n".write(to: file, atomically: true, encoding: .utf8)
        for command in [["check-config", file.path], ["run", "--config", file.path]] {
            let run = try await Self.run(command)
            #expect(run.status == 2)
            #expect(
                run.standardError.contains(
                    "gateway.yaml:1:18: source.replay: cannot read the capture \(directory.path)/missing.btsnoop: it does not exist "
                        + "(a relative path is read from the configuration file's directory)"), "\(run.standardError)")
        }

        try """
        source: {simulate: \(TestPaths.scenario("lobby"))}
        http: {listen: "127.0.0.1:0", tokenFile: token}
        sinks: []
        alerts: []

        """.write(to: file, atomically: true, encoding: .utf8)
        let noToken = try await Self.run(["check-config", file.path])
        #expect(noToken.status == 2)
        #expect(
            noToken.standardError.contains(
                "gateway.yaml:2:42: http.tokenFile: cannot read the token file \(directory.path)/token: it does not exist; "
                    + "write the token (one line) there"), "\(noToken.standardError)")
        #expect(!noToken.standardError.contains("NSCocoaErrorDomain"))
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("token"), withIntermediateDirectories: false)
        let directoryToken = try await Self.run(["check-config", file.path])
        #expect(directoryToken.standardError.contains("it is a directory, not a file"), "\(directoryToken.standardError)")
    }

    @Test("check-config checks the state file as run opens it: a directory, or one in a directory that does not exist")
    func stateFile() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("gateway.yaml")
        for (state, expected) in [
            (directory.path, "it is not a regular file"),
            ("nowhere/state.sqlite", "its directory \(directory.path)/nowhere does not exist; create it"),
        ] {
            try "source: {simulate: \(TestPaths.scenario("lobby"))}\nstate: \(state)\nsinks: []\nalerts: []\n"
                .write(to: file, atomically: true, encoding: .utf8)
            let check = try await Self.run(["check-config", file.path])
            #expect(check.status == 2)
            #expect(check.standardError.contains("gateway.yaml:2:8: state: "), "\(check.standardError)")
            #expect(check.standardError.contains(expected), "\(check.standardError)")
        }
    }

    @Test("check-config reads a site's recordings (replay --site): every capture, at its line")
    func siteRecordings() async throws {
        let bundled = try await Self.run(["check-config", TestPaths.repositoryRoot + "/Data/site/starksm64/site.yaml"])
        #expect(bundled.status == 0, "\(bundled.standardError)")
        #expect(
            bundled.standardOutput.contains(
                "a site's recordings (for beacond replay --site and evaluate-site): 4 gateways in 4 rooms"))

        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(
            atPath: TestPaths.capture("hci_2k_seed1.btsnoop"), toPath: directory.appendingPathComponent("a.btsnoop").path)
        let file = directory.appendingPathComponent("site.yaml")
        try """
        gateways:
          - {id: a, room: hall, position: [0, 0, 2], capture: a.btsnoop}
          - {id: b, room: hall, position: [5, 0, 2], capture: b.btsnoop}

        """.write(to: file, atomically: true, encoding: .utf8)
        let missing = try await Self.run(["check-config", file.path])
        #expect(missing.status == 2)
        #expect(
            missing.standardError.contains(
                "site.yaml:3:55: gateways[1].capture: cannot read the capture \(directory.path)/b.btsnoop: it does not exist"),
            "\(missing.standardError)")
    }

    @Test("check-config reads a foreign node's capture as its recorded MQTT messages, and refuses one that holds none")
    func foreignRecordings() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("site.yaml")
        try FileManager.default.copyItem(
            atPath: ForeignSiteReplayTests.recording, toPath: directory.appendingPathComponent("nodes.jsonl").path)
        try "not a recording\n".write(to: directory.appendingPathComponent("empty.jsonl"), atomically: true, encoding: .utf8)
        try """
        gateways:
          - {id: esp-master, kind: espresense, room: master, capture: nodes.jsonl}
          - {id: esp-laundry, kind: espresense, room: laundry, capture: nodes.jsonl}

        """.write(to: file, atomically: true, encoding: .utf8)
        let good = try await Self.run(["check-config", file.path])
        #expect(good.status == 0, "\(good.standardError)")
        #expect(good.standardOutput.contains("a site's recordings"), "\(good.standardOutput)")
        try """
        gateways:
          - {id: esp-master, kind: espresense, room: master, capture: empty.jsonl}

        """.write(to: file, atomically: true, encoding: .utf8)
        let bad = try await Self.run(["check-config", file.path])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("site.yaml:2:"), "\(bad.standardError)")
        #expect(bad.standardError.contains("empty.jsonl holds no recorded message"), "\(bad.standardError)")
    }
}
