import BeaconCore
import BeaconTestSupport
import Foundation

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
    /// brace, to which the gateway id is added); configurations and logs go to `directory`.
    static func startGateways(_ names: [String], scenario: URL, site: String, in directory: URL) throws -> [Process] {
        try names.map { name in
            let configuration = directory.appendingPathComponent("\(name).yaml")
            try """
            source: {simulate: \(scenario.path), gateway: \(name), speed: wall}
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
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// The lines of a file (none when it does not exist yet).
    static func lines(_ url: URL) -> [String] {
        ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// A scenario start far enough ahead for every process to start and connect first: `lead`
    /// whole seconds from now. A process that starts later joins the walk where it is (`speed:
    /// wall`), missing its beginning: leave room for a loaded machine (10 s).
    static func start(in lead: Int) -> Timestamp {
        let now = Int64(Date().timeIntervalSince1970)
        return Timestamp(nanosecondsSinceEpoch: (now + Int64(lead)) * 1_000_000_000)
    }

    /// The `"time"` of an event or presence line.
    static func time(of line: String) -> Timestamp? {
        guard let range = line.range(of: #""time":""#) else { return nil }
        return Timestamp(rfc3339: String(line[range.upperBound...].prefix(24)))
    }
}
