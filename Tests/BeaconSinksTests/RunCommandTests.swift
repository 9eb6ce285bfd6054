import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacond run` and `beacond check-config` as processes: shutdown on SIGTERM, and validation.
@Suite("beacond run and check-config", .serialized)
struct RunCommandTests {
    typealias Workspace = DaemonCrashTests.Workspace

    /// Reads `handle` until the text read contains `marker` (or the stream ends); returns the text.
    /// The reads block: on a thread of their own.
    static func read(_ handle: FileHandle, until marker: String) async -> String {
        await onOwnThread { blockingRead(handle, until: marker) }
    }

    private static func blockingRead(_ handle: FileHandle, until marker: String) -> String {
        var text = ""
        while !text.contains(marker) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    @Test("SIGTERM while a webhook is down: the daemon exits 0 leaving the events in the outbox; the next start delivers them")
    func sigtermKeepsBacklog() async throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.directory) }
        let server = try await WebhookTestServer(secret: DaemonCrashTests.secret)
        defer { server.stop() }
        let port = server.port
        await server.stopped()
        let sink = "{type: webhook, name: hook, url: \(server.url), secret: \(DaemonCrashTests.secret), timeout: 1s}"
        let state = workspace.path("state.sqlite")
        let first = try workspace.configuration(
            "first.yaml", source: "simulate:\(DaemonCrashTests.lobby)", state: state, sink: sink)

        let errors = Pipe()
        let daemon = try DaemonCrashTests.start(first, errors: errors)
        let beforeSignal = await Self.read(errors.fileHandleForReading, until: "retry 1")
        #expect(beforeSignal.contains("sink 'hook': delivery failed"))
        kill(daemon.processIdentifier, SIGTERM)
        let afterSignal = await Self.read(errors.fileHandleForReading, until: "\u{4}") // to the end
        await waitForExit(daemon)
        #expect(daemon.terminationReason == .exit && daemon.terminationStatus == 0)
        #expect(afterSignal.contains("beacond: stopping"))
        #expect(
            afterSignal.contains("sink 'hook': \(2 * DaemonCrashTests.alertCount) events left in the outbox for the next start"))

        try await server.start(port: port)
        let second = try workspace.configuration(
            "second.yaml", source: "replay:\(try workspace.emptyCapture())",
            state: state, sink: sink)
        let restarted = try DaemonCrashTests.start(second)
        await waitForExit(restarted)
        #expect(restarted.terminationStatus == 0)
        let keys = try server.requests().filter { $0.status == 200 }.compactMap(\.key)
        #expect(keys.count == 2 * DaemonCrashTests.alertCount)
        #expect(Set(keys).count == keys.count)
    }

    @Test("a second signal exits at once (status 130) while the first waits for a delivery in flight")
    func secondSignalForcesExit() async throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.directory) }
        let server = try await WebhookTestServer(secret: DaemonCrashTests.secret, delay: 60) // answers after a minute
        defer { server.stop() }
        let sink = "{type: webhook, name: hook, url: \(server.url), secret: \(DaemonCrashTests.secret), timeout: 30s}"
        let configuration = try workspace.configuration(
            "gw.yaml", source: "simulate:\(DaemonCrashTests.lobby)",
            state: workspace.path("state.sqlite"), sink: sink)
        let errors = Pipe()
        let daemon = try DaemonCrashTests.start(configuration, errors: errors)
        await server.received(1)
        kill(daemon.processIdentifier, SIGTERM)
        _ = await Self.read(errors.fileHandleForReading, until: "beacond: stopping")
        #expect(daemon.isRunning, "the first signal lets the delivery in flight finish")
        kill(daemon.processIdentifier, SIGTERM)
        await waitForExit(daemon)
        #expect(daemon.terminationReason == .exit && daemon.terminationStatus == 130)
    }

    @Test("check-config accepts a valid file and rejects a bad one with its line, starting nothing")
    func checkConfig() async throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.directory) }
        let valid = try workspace.configuration(
            "valid.yaml", source: "simulate:\(DaemonCrashTests.lobby)",
            state: workspace.path("state.sqlite"), sink: "{type: jsonl, path: -}")
        let ok = try await Self.run(["check-config", valid])
        #expect(ok.status == 0)
        #expect(ok.output.contains("valid"))
        #expect(!FileManager.default.fileExists(atPath: workspace.path("state.sqlite")), "nothing is opened")

        let invalid = workspace.path("invalid.yaml")
        try Data("source: hci\nsinks:\n  - {type: webhook, url: https://x.example, secrt: s}\n".utf8)
            .write(to: URL(fileURLWithPath: invalid))
        let bad = try await Self.run(["check-config", invalid])
        #expect(bad.status == 2)
        #expect(bad.errors.contains("invalid.yaml:3"))
        #expect(bad.errors.contains("unknown key 'secrt'"))

        let missingScenario = try workspace.configuration(
            "missing.yaml", source: "simulate:/nonexistent/site.yaml",
            state: "x.sqlite", sink: "{type: jsonl, path: -}")
        #expect(try await Self.run(["check-config", missingScenario]).status == 2)
    }

    @Test("check-config accepts an alerts-only file (the scenarios' alerts) and says what it checked")
    func checkAlertsOnly() async throws {
        let alerts = String(DaemonCrashTests.lobby.dropLast("lobby.yaml".count)) + "lobby.alerts.yaml"
        let result = try await Self.run(["check-config", alerts])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("alerts-only"))
        #expect(result.output.contains("1 alerts"))
        #expect(result.output.contains("no source, state or sinks"))
    }

    /// Runs beacond with `arguments` to its end (waited for on a thread of its own).
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        try await onOwnThread { try blockingRun(arguments) }
    }

    private static func blockingRun(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = DaemonCrashTests.beacond
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        blockUntilExit(process)
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
