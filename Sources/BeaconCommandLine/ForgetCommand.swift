import ArgumentParser
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconStore
import FoundationEssentials
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `beacond forget --config FILE WHO…`: erases a person's, device's or beacon's data from the files
/// the daemon keeps, and says what it removed.
struct ForgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Erase a person's, a device's or a beacon's data from the state file and the presence file.",
        discussion: """
            WHO is a person of people: (everything they carry), an enrolled device's id, a named beacon's name or \
            a beacon id (ibeacon:UUID:MAJOR:MINOR, device:NAME …). Stop the daemon first (systemctl stop beacond): \
            it keeps its state in memory and would write it back, so the command refuses while it runs. From the \
            state file it erases the pending alerts, alert histories, strategies' state, outbox events and dead \
            letters about them, then rewrites the file (VACUUM) so that no freed page keeps them; from the hub's \
            presence file (hub.presence), their lines. What was delivered is the receivers' (webhooks, JSON-lines \
            files, Home Assistant): the command lists what it cannot reach. See Docs/Devices.md.
            """)

    @OptionGroup var stateFile: StateFileOption

    @Argument(help: "People, devices or beacons to forget.")
    var who: [String]

    func run() throws {
        let (configuration, path) = try stateFile.load(missing: "there is no state to erase from")
        var beacons: [BeaconID] = []
        for text in who {
            guard let ids = Self.identities(text, in: configuration) else {
                printError(
                    "error: '\(text)' is neither a person (people:), an enrolled device, a named beacon nor a beacon id")
                throw ExitCode(2)
            }
            for id in ids where !beacons.contains(id) { beacons.append(id) }
        }
        let store: SQLiteAlertStateStore
        do {
            store = try SQLiteAlertStateStore(path: path, exclusive: true)
        } catch {
            printError("error: \(error)")
            throw ExitCode(error is AlertStoreError ? 75 : 74)
        }
        let report: SQLiteAlertStateStore.ForgetReport
        do {
            report = try store.forget(beacons)
        } catch {
            printError("error: cannot erase from \(path): \(error)")
            throw ExitCode(74)
        }
        var output = StandardOutput()
        let names = beacons.map { id in configuration.beacons[id].map { "\(id) (\($0.name))" } ?? "\(id)" }
        output.write("forgot \(names.joined(separator: ", "))")
        output.write(
            "  \(path): \(report.pendingAlerts) pending alerts, \(report.histories) alert histories, "
                + "\(report.strategyStates) strategy states, \(report.outboxEvents) outbox events, "
                + "\(report.deadLetters) dead letters; the file was rewritten (VACUUM)")
        if let presence = configuration.hub?.presencePath {
            do {
                let removed = try Self.filterPresence(presence, without: beacons)
                output.write("  \(presence): \(removed) presence lines")
            } catch {
                output.flush()
                printError("error: cannot rewrite the presence file \(presence): \(error)")
                throw ExitCode(74)
            }
        }
        let receivers = configuration.sinks.map(\.name)
        if !receivers.isEmpty {
            output.write(
                "  not reached: what the sinks delivered (\(receivers.joined(separator: ", "))) belongs to their receivers; "
                    + "Home Assistant keeps a beacon's retained entities until its discovery topics are cleared")
        }
        output.flush()
    }

    /// The identities `text` names in `configuration`: a person's members, or one identity (a
    /// beacon id of a device no longer enrolled too: its data may still be kept).
    static func identities(_ text: String, in configuration: GatewayConfiguration) -> [BeaconID]? {
        if let person = configuration.people.first(where: { $0.name == text }) { return person.members }
        return (configuration.beacons.identity(named: text) ?? BeaconID(text)).map { [$0] }
    }

    /// Rewrites the presence file at `path` without the lines of `beacons` (a temporary file renamed
    /// over it, flushed first, with the file's mode); returns how many lines went.
    static func filterPresence(_ path: String, without beacons: [BeaconID]) throws -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        let marks = beacons.map { id -> String in
            var json = JSONWriter()
            id.writeJSON(to: &json)
            return "\"beacon\":" + json.string
        }
        var kept: [UInt8] = []
        var removed = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            let text = String(decoding: line, as: UTF8.self)
            if marks.contains(where: { text.contains($0) }) {
                removed += 1
            } else {
                kept += line
                kept.append(UInt8(ascii: "\n"))
            }
        }
        guard removed > 0 else { return 0 }
        var status = stat()
        let mode = stat(path, &status) == 0 ? status.st_mode & 0o777 : 0o640
        let temporary = path + ".forget"
        let file = try FileDescriptor.open(
            temporary, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: FilePermissions(rawValue: mode))
        try file.closeAfter {
            try file.writeAll(kept)
            guard fsync(file.rawValue) == 0 else { throw Errno(rawValue: errno) }
        }
        guard rename(temporary, path) == 0 else { throw CommandProblem(String(cString: strerror(errno))) }
        return removed
    }
}
