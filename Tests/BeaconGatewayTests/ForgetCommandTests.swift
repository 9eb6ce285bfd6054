import BeaconAlertEngine
import BeaconCore
import BeaconCrypto
import BeaconDevices
import BeaconPipeline
import BeaconSinks
import BeaconStore
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import BeaconWire
import Foundation
import Testing

/// `beacond forget`: a person's data erased from the state file and the presence file, leaving
/// no trace a search of the files' bytes finds, while another person's stays; refused while a
/// daemon holds the state file.
@Suite("beacond forget")
struct ForgetCommandTests {
    static let key = try! IdentityResolvingKeyText(parsing: "ec0234a357c8ad05341010a60a397d9b")
    static let ada = BeaconID.device(named: "ada-phone")!
    static let bo = BeaconID("ibeacon:6E0C5A2B-3F1D-4C8E-9B7A-1D2E3F405162:1:3")!
    static let t0 = Timestamp(rfc3339: "2026-11-30T09:00:00Z")!

    /// A directory with the configuration, its key file, a presence file with both people's lines,
    /// and a state file holding both people's alerts (delivered, reminding, and in the outbox).
    static func directory(sinks: String = "[{type: jsonl, name: log, path: alerts.jsonl}]") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-forget-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "ec0234a357c8ad05341010a60a397d9b".write(toFile: directory + "/ada.irk", atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory + "/ada.irk")
        let config = """
            state: state.sqlite
            beacons: [{id: "\(bo)", name: Bo's badge}]
            devices: [{id: ada-phone, irk: ada.irk}]
            people:
              - {name: Ada, devices: [ada-phone]}
              - {name: Bo, devices: [Bo's badge]}
            gateways: [{id: hall, room: hall, position: [0, 0, 2]}]
            hub: {presence: presence.jsonl}
            sinks: \(sinks)
            alerts:
              - {id: home, match: any, strategy: time, parameters: {dwell: 5s, gap: 10s, maxTimeBeforeReset: 1m}, remind: {every: 1m, max: 5}}
            """
        try config.write(toFile: directory + "/gateway.yaml", atomically: false, encoding: .utf8)
        var presence = ""
        for (id, room) in [(ada, "hall"), (bo, "hall"), (ada, "kitchen")] {
            var json = JSONWriter()
            id.writeJSON(to: &json)
            presence += #"{"time":"2026-11-30T09:00:01.000Z","beacon":\#(json.string),"room":"\#(room)"}"# + "\n"
        }
        try presence.write(toFile: directory + "/presence.jsonl", atomically: false, encoding: .utf8)
        try fillState(directory + "/state.sqlite")
        return directory
    }

    /// Both people heard for a minute, through a pipeline on the state file with one sink's outbox.
    static func fillState(_ path: String) throws {
        let store = try SQLiteAlertStateStore(path: path, outbox: OutboxConfiguration(sinks: ["log"]))
        let alert = PipelineAlert(
            id: "home", match: .any, strategy: "time", parameters: ["dwell": "5s", "gap": "10s", "maxTimeBeforeReset": "1m"],
            rule: AlertRule(
                id: "home", content: AlertContent(title: "home"),
                policy: try AlertPolicy(remind: try ReminderPolicy(every: .seconds(60), max: 5))))
        let pipeline = try AlertPipeline(
            alerts: [alert], devices: [EnrolledDevice(id: ada, candidates: key.candidates, corroborates: false)],
            registry: .builtIn(), store: store)
        var batch = PacketBatch()
        var beaconData: [UInt8] = []
        AdvertisingDataEncoder.appendFlags(to: &beaconData)
        AdvertisingDataEncoder.appendIBeacon(
            IBeaconFrame(uuidHigh: bo.high, uuidLow: bo.low, major: bo.major, minor: bo.minor, measuredPower: -59),
            to: &beaconData)
        let phoneData: [UInt8] = [0x02, 0x01, 0x1A, 0x07, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B, 0x00]
        let phone = key.candidates[0].key.resolvablePrivateAddress(random: 5)
        for second in 0..<90 {
            for (address, data) in [(phone, phoneData), (BluetoothAddress("cb:ea:c0:00:00:03")!, beaconData)] {
                batch.append(timestamp: t0 + .seconds(Int64(second))) { bytes in
                    HCIEventEncoder.appendLEAdvertisingReport(
                        eventType: 0, addressType: .random, address: address, rssi: -55, data: data, to: &bytes)
                }
            }
        }
        try pipeline.ingest(batch, emit: { _ in })
        try pipeline.advance(to: t0 + .seconds(91), emit: { _ in })
    }

    /// Whether any of `files` holds `needle`'s bytes.
    static func anyHolds(_ files: [String], _ needle: String) -> Bool {
        let bytes = Data(needle.utf8)
        return files.contains { FileManager.default.contents(atPath: $0)?.range(of: bytes) != nil }
    }

    @Test("forgetting Ada erases her rows, outbox events and presence lines, leaves no bytes of her id, and keeps Bo's")
    func forgetsAda() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let state = directory + "/state.sqlite"
        let files = [state, state + "-wal", directory + "/presence.jsonl"]
        #expect(Self.anyHolds(files, "ada-phone"), "the state holds nothing of Ada to start with")
        let run = try await CommandRun.run(
            TestPaths.beacond, ["forget", "--config", "gateway.yaml", "Ada"], directory: directory)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("forgot device:ada-phone"), "\(run.standardOutput)")
        let counts = try #require(
            run.standardOutput.firstMatch(of: /(\d+) alert histories, \d+ strategy states, (\d+) outbox events/))
        #expect(Int(counts.1)! >= 1 && Int(counts.2)! >= 2, "\(run.standardOutput)")
        #expect(run.standardOutput.contains("presence.jsonl: 2 presence lines"), "\(run.standardOutput)")
        // No trace: not the name, nor its first eight bytes as the identity column stores them.
        for needle in ["ada-phone", "ada-phon"] { #expect(!Self.anyHolds(files, needle), "\(needle) is still in the files") }
        // Bo's are kept: his outbox events and presence line.
        let store = try SQLiteAlertStateStore(path: state, outbox: OutboxConfiguration(sinks: ["log"]))
        let left = try store.pending(sink: "log", limit: 1000)
        #expect(!left.isEmpty && left.allSatisfy { $0.event.key.contains("|\(Self.bo)|") }, "\(left.map(\.event.key))")
        let presence = try String(contentsOfFile: directory + "/presence.jsonl", encoding: .utf8)
        #expect(presence.split(separator: "\n").count == 1 && presence.contains("6E0C5A2B"))
    }

    @Test("under pseudonyms, forgetting Ada by her written name also erases what was kept before they were turned on")
    func forgetsUnderPseudonyms() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The state and presence file hold her written id (kept before pseudonyms were on).
        let config = try String(contentsOfFile: directory + "/gateway.yaml", encoding: .utf8)
        try (config + "\npseudonyms: {key: \"00112233445566778899aabbccddeeff\"}\n").write(
            toFile: directory + "/gateway.yaml", atomically: false, encoding: .utf8)
        let state = directory + "/state.sqlite"
        let files = [state, state + "-wal", directory + "/presence.jsonl"]
        #expect(Self.anyHolds(files, "ada-phone"))
        let run = try await CommandRun.run(
            TestPaths.beacond, ["forget", "--config", "gateway.yaml", "Ada"], directory: directory)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("device:p-a59e2cdb6754fc98"), "the pseudonymous id: \(run.standardOutput)")
        for needle in ["ada-phone", "ada-phon"] { #expect(!Self.anyHolds(files, needle), "\(needle) is still in the files") }
        #expect(Self.anyHolds(files, "6E0C5A2B") || Self.anyHolds(files, "6e0c5a2b"), "Bo's are kept")
    }

    @Test("refused while another process holds the state file, naming its pid; an unknown name is refused too")
    func refusedWhileHeld() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let held = try StateFileLock(statePath: directory + "/state.sqlite")
        let run = try await CommandRun.run(
            TestPaths.beacond, ["forget", "--config", "gateway.yaml", "Ada"], directory: directory)
        #expect(run.status == 75, "\(run.standardError)")
        #expect(run.standardError.contains("in use by another beacond (pid \(getpid()))"), "\(run.standardError)")
        #expect(Self.anyHolds([directory + "/state.sqlite", directory + "/state.sqlite-wal"], "ada-phone"))
        // A daemon on the same state file refuses to start, for the same reason.
        let source = TestPaths.scenario("lobby")
        try "source: {simulate: \(source)}\nstate: state.sqlite\nsinks: [{type: jsonl, path: a.jsonl}]\nalerts: []\n".write(
            toFile: directory + "/run.yaml", atomically: false, encoding: .utf8)
        let daemon = try await CommandRun.run(TestPaths.beacond, ["run", "--config", "run.yaml"], directory: directory)
        #expect(daemon.status != 0)
        #expect(daemon.standardError.contains("in use by another beacond (pid \(getpid()))"), "\(daemon.standardError)")
        _ = held
        let unknown = try await CommandRun.run(
            TestPaths.beacond, ["forget", "--config", "gateway.yaml", "Zoe"], directory: directory)
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("'Zoe' is neither a person"), "\(unknown.standardError)")
    }
}
