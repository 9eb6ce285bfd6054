import BeaconControl
import BeaconCore
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// MQTT answer commands that authenticate (issue 37, item 1): with `commands.keys`, an anonymous
/// client on the broker can no longer dismiss an alert under any name it likes; a command sealed
/// with an operator's key is answered under the key's name, once; a token stands in for a key
/// where the client cannot seal (Home Assistant's button); and a flood of junk does not crowd out
/// a real command, nor the log.
@Suite("beacond run: MQTT commands that authenticate")
struct MQTTCommandAuthenticationTests {
    static let key = Array(repeating: UInt8(0x5a), count: 32)
    static let keyHex = String(repeating: "5a", count: 32)
    static let token = "ha-token-0123456789abcdef"
    static let beacon = "ibeacon:5A4BCFCE-174E-4BAC-A814-092E77F6B7E5:1:1"
    static let prefix = "beacond/desk-gw/commands"

    /// Publishes every line of `lines` as a message (`mosquitto_pub -l`), in one connection.
    static func flood(_ lines: [String], topic: String, port: Int, in directory: URL) async throws -> Int32 {
        let file = directory.appendingPathComponent("flood-\(UUID().uuidString)")
        try Data(lines.joined(separator: "\n").utf8 + [UInt8(ascii: "\n")]).write(to: file)
        return try await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
            process.arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-l"]
            process.standardInput = try FileHandle(forReadingFrom: file)
            try process.run()
            blockUntilExit(process)
            return process.terminationStatus
        }
    }

    @Test(
        "unsigned commands refused; a sealed one answered under its key's name, once; a token taken; a flood crowds out nothing")
    func authenticated() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let directory = broker.directory
        let configuration = directory.appendingPathComponent("gateway.yaml")
        try """
        source: {simulate: \(try TestPaths.lingeringLobby(in: directory)), speed: 1}
        sinks:
          - {type: jsonl, path: "-"}
          - type: mqtt
            host: 127.0.0.1
            port: \(broker.port)
            gateway: desk-gw
            beacons: false
            commands: {keys: {head-nurse: {key: \(Self.keyHex)}}, tokens: {home-assistant: \(Self.token)}}
        alerts:
          - id: desk
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}
            strategy: time
            parameters: {dwell: 5s, gap: 10s, maxTimeBeforeReset: 600s}
            remind: {every: 3s, max: 50}

        """.write(to: configuration, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(arguments: ["run", "--config", configuration.path])
        #expect(await daemon.errorLine(containing: "mqtt commands: connected") != nil)
        _ = try #require(await daemon.outputLine(containing: #""event":"delivered""#))
        // The results, as mosquitto_sub writes them to a file; each wait ends when its line is
        // there, or at the hang's ceiling.
        let resultsFile = directory.appendingPathComponent("results.txt")
        #expect(FileManager.default.createFile(atPath: resultsFile.path, contents: nil))
        let subscriber = Process()
        subscriber.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        subscriber.arguments = [
            "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "\(Self.prefix)/result", "-q", "1", "-i", "results",
        ]
        subscriber.standardOutput = try FileHandle(forWritingTo: resultsFile)
        try subscriber.run()
        defer {
            kill(subscriber.processIdentifier, SIGKILL)
            reapWhenExited(subscriber)
        }
        await broker.logged("results 1 \(Self.prefix)/result")
        func result(containing text: String) async -> String? {
            _ = await realWorkFinishes(within: SiteProcesses.hang) {
                SiteProcesses.lines(resultsFile).contains { $0.contains(text) }
            }
            return SiteProcesses.lines(resultsFile).first { $0.contains(text) }
        }
        func publish(_ payload: [UInt8], _ action: String) async throws {
            try await SiteProcesses.publish(payload, topic: "\(Self.prefix)/\(action)", port: broker.port, in: directory)
        }

        // An anonymous dismissal, forever, in the head nurse's name: refused, and said why, under its id.
        try await publish(
            Array(#"{"beacon": "\#(Self.beacon)", "suppress": "forever", "by": "head-nurse", "id": "anon-1"}"#.utf8),
            "dismiss")
        let refusal = try #require(await result(containing: "refused (unsigned)"))
        #expect(refusal.contains(Self.prefix + "/dismiss"))
        #expect(refusal.hasPrefix(#"{"id":"anon-1","#), "\(refusal)")

        // Home Assistant's button: a fixed payload with its token, answered under the token's name.
        try await publish(
            Array(#"{"beacon": "\#(Self.beacon)", "by": "someone-else", "token": "\#(Self.token)"}"#.utf8), "acknowledge")
        let acknowledged = try #require(await daemon.outputLine(containing: #""event":"acknowledged""#))
        #expect(acknowledged.contains(#""by":"home-assistant via mqtt""#), "\(acknowledged)")

        // Six thousand junk commands, then the head nurse's sealed unsuppress: answered.
        let junk = (0..<6000).map { #"{"beacon": "\#(Self.beacon)", "suppress": "forever", "by": "junk-\#($0)"}"# }
        #expect(try await Self.flood(junk, topic: "\(Self.prefix)/dismiss", port: broker.port, in: directory) == 0)
        let command = Array(#"{"alert": "desk", "beacon": "\#(Self.beacon)", "id": "nurse-7"}"#.utf8)
        let sequence = UInt64(WallClock().now.nanosecondsSinceEpoch)
        let sealed = CommandSeal.seal(command, action: "unsuppress", name: "head-nurse", sequence: sequence, key: Self.key)
        try await publish(sealed, "unsuppress")
        #expect(await result(containing: #"{"id":"nurse-7","lifted":false}"#) != nil, "answered, under its id")

        // The same sealed command again: a replay. Its seal does not open another action.
        try await publish(sealed, "unsuppress")
        #expect(await result(containing: "refused (replayed)") != nil)
        try await publish(sealed, "dismiss")
        #expect(await result(containing: "refused (bad-signature)") != nil)
        try await publish(Array(#"{"beacon": "\#(Self.beacon)", "token": "not-the-token-at-all"}"#.utf8), "dismiss")
        #expect(await result(containing: "refused (bad-token)") != nil)

        kill(daemon.process.processIdentifier, SIGTERM)
        let exit = await daemon.waitForExit()
        let events = exit.output.split(separator: "\n")
        #expect(!events.contains { $0.contains(#""event":"dismissed""#) }, "a refused command dismissed the alert")
        // Every refusal counted; the log holds a line per reason, not one per junk command.
        let summary = exit.errors.split(separator: "\n").first { $0.contains("mqtt commands: refused ") && !$0.contains(" on ") }
        #expect(summary?.contains("6001 unsigned") == true, "\(summary ?? "no summary")")
        let refusalLines = exit.errors.split(separator: "\n").filter { $0.contains("mqtt commands: refused a command on") }
        // Four reasons, each logged at once and then at most once a minute: a slow machine may
        // add a line or two, never thousands.
        #expect(refusalLines.count <= 8, "\(refusalLines.count) refusal lines")
    }
}

/// The command seal and the authority that checks it, event by event with a given clock.
@Suite("CommandAuthority: who may answer over MQTT")
struct CommandAuthorityTests {
    static let key = MQTTCommandAuthenticationTests.key
    static let now = Timestamp(rfc3339: "2026-01-05T09:00:00Z")!

    static func sealed(_ command: String, action: String = "dismiss", name: String = "head-nurse", at time: Timestamp = now)
        -> [UInt8]
    {
        CommandSeal.seal(
            Array(command.utf8), action: action, name: name, sequence: UInt64(time.nanosecondsSinceEpoch), key: key)
    }

    static func authority() -> CommandAuthority {
        CommandAuthority(keys: ["head-nurse": key], tokens: ["home-assistant": "0123456789abcdef"])
    }

    @Test("a sealed command opens to its name and command; the key's name, not the command's, is who sent it")
    func opens() throws {
        let authority = Self.authority()
        let result = authority.check(action: "dismiss", payload: Self.sealed(#"{"by":"x"}"#), now: Self.now)
        #expect(try result.get() == CommandAuthority.Accepted(name: "head-nurse", command: Array(#"{"by":"x"}"#.utf8)))
    }

    @Test("refused: unsigned, an unknown key, another key's code, another action, a replay, out of the window, a bad seal line")
    func refusals() {
        let authority = Self.authority()
        func reason(_ payload: [UInt8], action: String = "dismiss", now: Timestamp = Self.now) -> CommandAuthority.Refusal? {
            if case .failure(let refusal) = authority.check(action: action, payload: payload, now: now) { return refusal }
            return nil
        }
        #expect(reason(Array(#"{"beacon":"b"}"#.utf8)) == .unsigned)
        #expect(reason(Self.sealed("{}", name: "stranger")) == .unknownKey)
        let otherKey = CommandSeal.seal(
            Array("{}".utf8), action: "dismiss", name: "head-nurse", sequence: UInt64(Self.now.nanosecondsSinceEpoch),
            key: Array(repeating: 1, count: 32))
        #expect(reason(otherKey) == .badSignature)
        #expect(reason(Self.sealed("{}", action: "acknowledge")) == .badSignature)
        let once = Self.sealed(#"{"n":1}"#, at: Self.now + .seconds(1))
        #expect(reason(once) == nil)
        #expect(reason(once) == .replayed)
        #expect(reason(Self.sealed("{}", at: Self.now - .seconds(61))) == .replayed)
        #expect(reason(Self.sealed("{}", at: Self.now + .seconds(61))) == .replayed)
        #expect(reason(Array("beacond-command v1 head-nurse 12 zz\n{}".utf8)) == .malformedSeal)
        #expect(reason(Array(#"{"token":"wrong-token-value"}"#.utf8)) == .badToken)
    }

    @Test("a token names its sender; an open channel takes anything under the name it gives")
    func tokensAndOpen() throws {
        let authority = Self.authority()
        let press = Array(#"{"beacon":"b","token":"0123456789abcdef"}"#.utf8)
        #expect(try authority.check(action: "acknowledge", payload: press, now: Self.now).get().name == "home-assistant")
        let open = CommandAuthority()
        #expect(open.isOpen)
        #expect(try open.check(action: "dismiss", payload: Array("x".utf8), now: Self.now).get().name == nil)
    }

    @Test("sequences out of order within the window are each taken once")
    func outOfOrder() {
        let authority = Self.authority()
        let later = Self.sealed("{}", at: Self.now + .seconds(5))
        let earlier = Self.sealed("{}", at: Self.now + .seconds(2))
        #expect((try? authority.check(action: "dismiss", payload: later, now: Self.now).get()) != nil)
        #expect((try? authority.check(action: "dismiss", payload: earlier, now: Self.now).get()) != nil)
        #expect((try? authority.check(action: "dismiss", payload: earlier, now: Self.now).get()) == nil)
    }
}
