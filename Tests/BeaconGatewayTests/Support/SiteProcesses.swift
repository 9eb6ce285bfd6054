import BeaconCore
import BeaconSimulator
import BeaconTestSupport
import Foundation
import Testing

/// Helpers of the tests that run a site as separate `beacond` processes.
enum SiteProcesses {
    /// Starts `beacond` with `arguments`, its standard error in `log` (read when a check fails).
    static func start(_ arguments: [String], log: URL) throws -> Process {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.beacond)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        return process
    }

    /// Starts a `beacond run` per gateway name, each simulating its gateway of `scenario` on the
    /// wall clock and publishing to the site of `site` (a `site:` mapping without its closing
    /// brace, to which the gateway id is added); configurations and logs go to `directory`. With
    /// `startFile`, the scenario waits for ``release(_:lead:)`` (`startFile:` of the source).
    static func startGateways(
        _ names: [String], scenario: URL, site: String, startFile: URL? = nil, in directory: URL
    ) throws -> [Process] {
        try names.map { name in
            let configuration = directory.appendingPathComponent("\(name).yaml")
            let held = startFile.map { ", startFile: \($0.path)" } ?? ""
            try """
            source: {simulate: \(scenario.path), gateway: \(name), speed: wall\(held)}
            \(site), gateway: \(name)}
            alerts: []

            """.write(to: configuration, atomically: true, encoding: .utf8)
            return try start(["run", "--config", configuration.path], log: directory.appendingPathComponent("\(name).log"))
        }
    }

    /// Publishes `payload` under `topic` with the real client (`mosquitto_pub -f`), as `user`
    /// (password `pw-<user>`, client id `<user>-pub-…`) when given; its exit status.
    @discardableResult
    static func publish(
        _ payload: [UInt8], topic: String, port: Int, user: String? = nil, in directory: URL
    ) async throws -> Int32 {
        let file = directory.appendingPathComponent("payload-\(UUID().uuidString)")
        try Data(payload).write(to: file)
        let login = user.map { ["-u", $0, "-P", "pw-\($0)", "-i", "\($0)-pub-\(UUID().uuidString.prefix(8))"] } ?? []
        let arguments = ["-h", "127.0.0.1", "-p", "\(port)"] + login + ["-t", topic, "-f", file.path]
        // The wait is off the cooperative pool: two blocked waits would stall every other suite
        // on this 2-core machine, and the hub's heartbeats with them.
        return try await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
            process.arguments = arguments
            try process.run()
            blockUntilExit(process)
            return process.terminationStatus
        }
    }

    /// The lines of a file (none when it does not exist yet).
    static func lines(_ url: URL) -> [String] {
        ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// A scenario start `lead` whole seconds from now.
    static func start(in lead: Int) -> Timestamp {
        let now = Int64(Date().timeIntervalSince1970)
        return Timestamp(nanosecondsSinceEpoch: (now + Int64(lead)) * 1_000_000_000)
    }

    /// How long a process may take to say it is ready, or a site to finish what it was released
    /// to do, before the test calls it a hang: only a real hang reaches it, not a busy machine.
    static let hang = hangCeiling

    /// Waits until every log in `logs` has the daemon's `ready:` line (its source running, its
    /// broker connected, its subscriptions acknowledged, its takeover role known), and records
    /// an issue naming each log that never did, with its last lines; whether all did.
    @discardableResult
    static func waitUntilReady(_ logs: [URL], sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        func ready(_ log: URL) -> Bool { lines(log).contains { $0.contains("ready: source running") } }
        _ = await realWorkFinishes(within: hang) { logs.allSatisfy(ready) }
        let notReady = logs.filter { !ready($0) }
        #expect(
            notReady.isEmpty, "not ready: \(notReady.map { ($0.lastPathComponent, lines($0).suffix(5)) })",
            sourceLocation: sourceLocation)
        return notReady.isEmpty
    }

    /// Releases the scenario of the gateways started with `startFile` (every one of them ready):
    /// writes its start, `lead` from now to the whole second, into `file` at once (a rename), and
    /// returns it. The lead is the time the gateways have to see the file (they look every 50 ms):
    /// the one moment a site test still guesses, since processes that start one walk together
    /// need a start fixed before they see it. So it is checked: each of `logs` (the gateways held
    /// by the file) must say it released the scenario, and an issue names any that joined it
    /// under way (it saw the file after the start, and missed the walk's beginning), with its own
    /// words, rather than leave a test to fail later on a position or an alert.
    @discardableResult
    static func release(
        _ file: URL, lead: Int = 2, watching logs: [URL], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Timestamp {
        let start = start(in: lead)
        let draft = file.appendingPathExtension("draft")
        try start.rfc3339String.write(to: draft, atomically: false, encoding: .utf8)
        try FileManager.default.moveItem(at: draft, to: file)
        func released(_ said: [String]) -> Bool { said.contains { $0.contains("released the scenario") } }
        _ = await realWorkFinishes(within: hang) { logs.allSatisfy { released(lines($0)) } }
        for log in logs {
            let said = lines(log)
            #expect(released(said), "\(log.lastPathComponent) never released: \(said.suffix(5))", sourceLocation: sourceLocation)
            if let late = said.first(where: { $0.contains("joined the scenario under way") }) {
                Issue.record(
                    "\(log.lastPathComponent) saw the start file after the start it holds, which was \(lead) s or less after the release (the machine held it longer): \(late)",
                    sourceLocation: sourceLocation)
            }
        }
        return start
    }

    /// The scenario at `file` as the gateways run it once released at `start`.
    static func released(_ file: URL, at start: Timestamp) throws -> Scenario {
        var scenario = try Scenario.load(path: file.path)
        scenario.start = start
        return scenario
    }

    /// The `"time"` of an event or presence line.
    static func time(of line: String) -> Timestamp? {
        guard let range = line.range(of: #""time":""#) else { return nil }
        return Timestamp(rfc3339: String(line[range.upperBound...].prefix(24)))
    }
}
