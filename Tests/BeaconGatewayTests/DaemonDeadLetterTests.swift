import BeaconTestSupport
import Foundation
import Testing

/// `beacond run` with a callback that can never succeed (its host answers 404): the event goes
/// to the dead letters, the sink goes on with every other event, and `beacond outbox` lists,
/// retries and drops it. Before, the sink retried that event for ever and nothing behind it was
/// delivered.
@Suite("beacond run and beacond outbox: a poison event does not block its sink", .serialized)
struct DaemonDeadLetterTests {
    @Test("the 404 callback's event is a dead letter; every other event is delivered; outbox list, retry, drop")
    func poisonCallback() async throws {
        let server = try await WebhookTestServer(secret: "dead-letter-secret")
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-dead-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("gateway.yaml").path
        try """
        source: {simulate: \(TestPaths.repositoryRoot)/Simulator/Scenarios/lobby.yaml, speed: max}
        state: \(directory.path)/state.sqlite
        sinks:
          - {type: webhook, url: "\(server.url)", secret: dead-letter-secret}
          - {type: jsonl, path: "\(directory.path)/events.jsonl"}
        alerts:
          - id: lobby-dwell
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}
            strategy: time
            parameters: {dwell: 5s}
            callback: "http://127.0.0.1:\(server.port)/gone/dwell"
          - id: lobby-enter
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}
            strategy: enter

        """.write(toFile: config, atomically: true, encoding: .utf8)

        let run = try await CommandRun.run(TestPaths.beacond, ["run", "--config", config])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("gave up on event"), "\(run.standardError)")
        let requests = try server.requests()
        // Each of the dwell alert's two events (created, delivered) was tried once at its dead
        // callback (a 404 is permanent); the other alert's events, written after them, all arrived.
        #expect(requests.filter { $0.path == "/gone/dwell" }.map(\.status) == [404, 404])
        let delivered = requests.filter { $0.path == "/alerts" && $0.status == 200 }
        #expect(
            delivered.filter { $0.body.contains(#""alert":"lobby-enter""#) }.count >= 4, "both visitors, created and delivered")

        // The other sink heard of each dead letter as an `error` event of the same alert; the
        // webhook that gave up was not sent one.
        let file = try String(contentsOfFile: directory.appendingPathComponent("events.jsonl").path, encoding: .utf8)
        let notices = file.split(separator: "\n").filter { $0.contains(#""event":"error""#) }
        #expect(notices.count == 2, "\(file)")
        #expect(notices.allSatisfy { $0.contains(#""alert":"lobby-dwell""#) && $0.contains("gave up on the") })
        #expect(notices.allSatisfy { $0.contains("beacond outbox list") })
        #expect(!requests.contains { $0.body.contains(#""event":"error""#) })

        let list = try await CommandRun.run(TestPaths.beacond, ["outbox", "list", "--config", config])
        #expect(list.status == 0, "\(list.standardError)")
        let lines = list.standardOutput.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""attempts":1"#) == true, "\(list.standardOutput)")
        #expect(lines.first?.contains("HTTP 404") == true, "\(list.standardOutput)")
        #expect(lines.first?.contains(#"\"alert\":\"lobby-dwell\""#) == true, "\(list.standardOutput)")

        let retry = try await CommandRun.run(TestPaths.beacond, ["outbox", "retry", "--config", config])
        #expect(retry.standardOutput.contains("2 dead letter(s) back in the outbox"), "\(retry.standardOutput)")
        let empty = try await CommandRun.run(TestPaths.beacond, ["outbox", "list", "--config", config])
        #expect(empty.standardOutput.isEmpty && empty.standardError.contains("0 dead letter(s)"))

        // The next start sends it again: still 404, so a dead letter again; then it is dropped.
        let again = try await CommandRun.run(TestPaths.beacond, ["run", "--config", config])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try server.requests().filter { $0.path == "/gone/dwell" }.count == 4)
        let drop = try await CommandRun.run(TestPaths.beacond, ["outbox", "drop", "--config", config])
        #expect(drop.standardOutput.contains("2 dead letter(s) dropped"), "\(drop.standardOutput)")

        let noState = directory.appendingPathComponent("memory.yaml").path
        try "sinks:\n  - {type: jsonl, path: \"-\"}\nalerts: []\n".write(toFile: noState, atomically: true, encoding: .utf8)
        let refused = try await CommandRun.run(TestPaths.beacond, ["outbox", "list", "--config", noState])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("has no `state:` file"), "\(refused.standardError)")
    }

    @Test("a full backlog spills: the events wait among the dead letters, the other sink hears, a retry delivers them")
    func backlogSpill() async throws {
        // The webhook refuses its first four requests (retried 1, 2, 4 s apart), so its first
        // event holds its backlog of 2 for longer than the paced run takes.
        let server = try await WebhookTestServer(secret: "spill-secret", failFirst: 4)
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("gateway.yaml").path
        let events = directory.appendingPathComponent("events.jsonl").path
        try """
        source: {simulate: \(TestPaths.repositoryRoot)/Simulator/Scenarios/lobby.yaml, speed: 30}
        state: \(directory.path)/state.sqlite
        maxBacklog: 2
        sinks:
          - {type: webhook, url: "\(server.url)", secret: spill-secret}
          - {type: jsonl, path: "\(events)"}
        alerts:
          - id: lobby-enter
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}
            strategy: enter

        """.write(toFile: config, atomically: true, encoding: .utf8)

        let run = try await CommandRun.run(TestPaths.beacond, ["run", "--config", config])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("backlog full (maxBacklog 2)"), "\(run.standardError)")
        // Two visitors enter: created and delivered each. The webhook took the first two; the
        // second visitor's two did not fit.
        let file = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        let alertEvents = file.filter { !$0.contains(#""event":"error""#) }
        try #require(alertEvents.count == 4, "\(file)\n\(run.standardError)")
        let notices = file.filter { $0.contains(#""event":"error""#) }
        #expect(notices.count == 2, "one error event per spilled event: \(file)")
        #expect(notices.allSatisfy { $0.contains("could not queue") && $0.contains("backlog full") })
        func key(_ line: Substring) -> String? {
            line.range(of: #""key":""#).map { String(line[$0.upperBound...].prefix { $0 != "\"" }) }
        }
        let delivered = { try server.requests().filter { $0.status == 200 }.compactMap(\.key) }
        #expect(try delivered() == alertEvents.prefix(2).compactMap(key))

        let list = try await CommandRun.run(TestPaths.beacond, ["outbox", "list", "--config", config])
        let spilled = list.standardOutput.split(separator: "\n")
        #expect(spilled.count == 2, "\(list.standardOutput)")
        #expect(spilled.allSatisfy { $0.contains(#""attempts":0"#) && $0.contains("backlog full") })

        // Retried, the next start (its simulation resumes at the end: nothing new) delivers them.
        let retry = try await CommandRun.run(TestPaths.beacond, ["outbox", "retry", "--config", config])
        #expect(retry.standardOutput.contains("2 dead letter(s) back in the outbox"), "\(retry.standardOutput)")
        let again = try await CommandRun.run(TestPaths.beacond, ["run", "--config", config])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardError.contains("resuming sim:lobby/desk"), "\(again.standardError)")
        #expect(try delivered() == alertEvents.compactMap(key), "every event, each once, in order")
    }
}
