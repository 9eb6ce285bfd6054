import BeaconBlueZ
import BeaconTestSupport
import Foundation
import Testing

/// On a kernel without Bluetooth (like the CI machine), `beacond scan` must fail at once with a
/// message that says so and what to use instead. Skipped where the kernel has Bluetooth.
@Suite("beacond scan without Bluetooth")
struct ScanWithoutBluetoothTests {
    static var kernelLacksBluetooth: Bool {
        let fd = socket(31 /* AF_BLUETOOTH */, Int32(SOCK_RAW.rawValue), 1 /* BTPROTO_HCI */)
        if fd >= 0 {
            close(fd)
            return false
        }
        return errno == EAFNOSUPPORT
    }

    /// How long this machine takes, now, to start `beacond` and have it exit (`--version`): what
    /// "at once" is measured against, so that a busy machine's slow start is not taken for a wait.
    static func startAndExit() async throws -> Duration {
        try await CommandRun.run(TestPaths.beacond, ["--version"]).elapsed
    }

    @Test(
        "exits 69 by itself, long before its duration, naming the cause and the radio-free commands",
        .enabled(if: kernelLacksBluetooth, "this kernel has Bluetooth"))
    func failsFast() async throws {
        let baseline = try await Self.startAndExit()
        // Ten minutes asked for: a scanner that waited or retried would take them; one that fails
        // fast exits in a start's time. The bound is a minute past a start, so that a busy
        // machine's slow moment is never taken for a wait.
        let run = try await CommandRun.run(TestPaths.beacond, ["scan", "--duration", "10m"])
        #expect(run.status == 69)
        #expect(run.elapsed < baseline + .seconds(60), "took \(run.elapsed), a start and exit \(baseline)")
        #expect(!run.standardError.contains("retry"), "\(run.standardError)")
        #expect(run.standardError.contains("no Bluetooth support"), "\(run.standardError)")
        for alternative in ["beacond parse", "beacond replay", "beacond simulate"] {
            #expect(run.standardError.contains(alternative), "\(run.standardError)")
        }
        #expect(run.standardOutput.isEmpty)
    }

    @Test(
        "beacond run on a radio exits 69 at once, saying why (the systemd unit does not restart on it)",
        .enabled(if: kernelLacksBluetooth, "this kernel has Bluetooth"))
    func runFailsFast() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("run-radio-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config =
            "source: {hci: hci0, interval: 100ms, window: 50ms, record: \(directory)/air.btsnoop}\n"
            + "sinks:\n  - {type: jsonl, path: \(directory)/alerts.jsonl}\nalerts: []\n"
        try config.write(toFile: directory + "/gateway.yaml", atomically: true, encoding: .utf8)
        let baseline = try await Self.startAndExit()
        let run = try await CommandRun.run(TestPaths.beacond, ["run", "--config", directory + "/gateway.yaml"])
        #expect(run.status == 69, "\(run.standardError)")
        // `run` has no duration: returning at all shows it did not keep the radio open; within a
        // minute of a start, that it did not retry first (a restart loop's backoff would show).
        #expect(run.elapsed < baseline + .seconds(60), "took \(run.elapsed), a start and exit \(baseline)")
        #expect(!run.standardError.contains("retry"), "\(run.standardError)")
        #expect(run.standardError.contains("no Bluetooth support"), "\(run.standardError)")
        let unit = try String(contentsOfFile: TestPaths.repositoryRoot + "/deploy/beacond.service", encoding: .utf8)
        #expect(unit.contains("RestartPreventExitStatus=69 75 77"))
    }

    @Test("each command the no-Bluetooth message suggests runs as written, with a capture, alerts and a scenario")
    func suggestionsRun() async throws {
        let message = BlueZScannerError.bluetoothUnavailable(HCISystemError(.socket, errno: EAFNOSUPPORT)).description
        let commands = message.matches(of: /`(beacond [^`]+)`/).map { String($0.1) }
        #expect(commands.count == 3, "\(message)")
        let lobby = TestPaths.scenario("lobby")
        for command in commands {
            let words = command.split(separator: " ").dropFirst().map { word in
                switch word {
                case "FILE": TestPaths.capture("hci_2k_seed1.btsnoop")
                case "alerts.yaml": String(lobby.dropLast("lobby.yaml".count)) + "lobby.alerts.yaml"
                case "SCENARIO": lobby
                default: String(word)
                }
            }
            let run = try await CommandRun.run(TestPaths.beacond, words)
            #expect(run.status == 0, "`\(command)` as `beacond \(words.joined(separator: " "))`: \(run.standardError)")
        }
    }

    @Test("beacond replay without --config parses and ranges the capture, and says that no alerts ran")
    func replayWithoutAlerts() async throws {
        let run = try await CommandRun.run(TestPaths.beacond, ["replay", TestPaths.capture("hci_2k_seed1.btsnoop")])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("replay: no --config, so no alerts"), "\(run.standardError)")
        #expect(run.standardError.contains("events: none"), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
    }
}
