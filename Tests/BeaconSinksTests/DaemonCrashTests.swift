import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacond run` delivering to a real webhook on 127.0.0.1, killed with SIGKILL while deliveries
/// are in flight, then started again on the same state file: the outbox is replayed, so every
/// event arrives; a repeat (a request answered just before the kill) carries the same
/// idempotency key and body, so a receiver that drops repeated keys sees each event once.
@Suite("beacond run killed with SIGKILL mid-delivery", .serialized)
struct DaemonCrashTests {
    static let secret = "crash-test-secret"
    static let alertCount = 8

    struct Workspace {
        let directory: URL

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-daemon-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        /// Writes a configuration: the lobby scenario's visitor, watched by `alertCount` dwell alerts.
        func configuration(_ name: String, source: String, state: String, sink: String) throws -> String {
            let alerts = (1...DaemonCrashTests.alertCount).map { index in
                "  - {id: dwell-\(index), match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}, strategy: time, "
                    + "parameters: {dwell: 60s, gap: 10s, maxTimeBeforeReset: 60s}, content: {title: Alert \(index)}}"
            }
            let text =
                "source: \(source)\nstate: \(state)\nsinks:\n  - \(sink)\nalerts:\n" + alerts.joined(separator: "\n") + "\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
            return path(name)
        }

        /// A btsnoop capture with a header (H4 datalink) and no records: a source with nothing new.
        func emptyCapture() throws -> String {
            var bytes = Array("btsnoop\0".utf8)
            bytes += [0, 0, 0, 1, 0, 0, 0x03, 0xEA] // version 1, datalink 1002 (big-endian)
            try Data(bytes).write(to: URL(fileURLWithPath: path("empty.btsnoop")))
            return path("empty.btsnoop")
        }
    }

    static var beacond: URL { URL(fileURLWithPath: TestPaths.beacond) }

    static var lobby: String { TestPaths.scenario("lobby") }

    /// Starts `beacond run --config configuration`, its standard error into `errors` if given.
    static func start(_ configuration: String, errors: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = beacond
        process.arguments = ["run", "--config", configuration]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test("killed while delivering, restarted on the same state: every event arrives, repeats keep their key")
    func killAndRestart() async throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.directory) }

        // The events an uninterrupted run delivers, as JSON lines in a file.
        let reference = try workspace.configuration(
            "reference.yaml", source: "simulate:\(Self.lobby)",
            state: workspace.path("reference.sqlite"),
            sink: "{type: jsonl, path: \(workspace.path("reference.jsonl"))}")
        let referenceRun = try Self.start(reference)
        await waitForExit(referenceRun)
        try #require(referenceRun.terminationStatus == 0)
        let expected = try String(contentsOfFile: workspace.path("reference.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        try #require(expected.count == 2 * Self.alertCount) // created + delivered per alert

        // Three deliveries answered, the fourth held: the kill comes while it is in flight, however
        // long the test takes to get there.
        let server = try await WebhookTestServer(secret: Self.secret, holdAfter: 3)
        defer { server.stop() }
        let sink = "{type: webhook, name: hook, url: \(server.url), secret: \(Self.secret), timeout: 10m}" // never times out here
        let state = workspace.path("state.sqlite")
        let first = try workspace.configuration("first.yaml", source: "simulate:\(Self.lobby)", state: state, sink: sink)
        let daemon = try Self.start(first)
        await server.received(4)
        kill(daemon.processIdentifier, SIGKILL)
        await waitForExit(daemon)
        #expect(daemon.terminationReason == .uncaughtSignal && daemon.terminationStatus == SIGKILL)
        let beforeRestart = try server.requests().count
        #expect(beforeRestart == 4, "three deliveries answered and the fourth in flight at the kill")
        try server.release()

        let second = try workspace.configuration(
            "second.yaml", source: "replay:\(try workspace.emptyCapture())",
            state: state, sink: sink)
        let restarted = try Self.start(second)
        await waitForExit(restarted)
        #expect(restarted.terminationReason == .exit && restarted.terminationStatus == 0)

        let accepted = try server.requests().filter { $0.status == 200 }
        #expect(accepted.allSatisfy { $0.signatureValid && $0.path == "/alerts" })
        var firstSeen: [String: String] = [:]
        var order: [String] = []
        for request in accepted {
            let key = try #require(request.key)
            if let body = firstSeen[key] {
                #expect(body == request.body, "a repeat carries the same body as the first delivery of \(key)")
            } else {
                firstSeen[key] = request.body
                order.append(request.body)
            }
        }
        #expect(order == expected, "each event arrives, in the order of an uninterrupted run")
        #expect(accepted.count - order.count <= 1, "at most the request in flight at the kill is repeated")
    }
}
