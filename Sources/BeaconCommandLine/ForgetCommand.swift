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
struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Erase a person's, a device's or a beacon's data from the state file, the presence file and MQTT brokers.",
        discussion: """
            WHO is a person of people: (everything they carry), an enrolled device's id, a named beacon's name or \
            a beacon id (ibeacon:UUID:MAJOR:MINOR, device:NAME …). Stop the daemon first (systemctl stop beacond): \
            it keeps its state in memory and would write it back, so the command refuses while it runs. From the \
            state file it erases the pending alerts, alert histories, strategies' state, outbox events and dead \
            letters about them, then rewrites the file (VACUUM) so that no freed page keeps them; from the hub's \
            presence file (hub.presence) and its older part (FILE.1), their lines; at the broker of every mqtt \
            sink, the retained topics the daemon published of them (presence, and with Home Assistant discovery \
            their entities, which Home Assistant then removes). What was delivered is the receivers' (webhooks, \
            JSON-lines files, alert events): the command lists what it cannot reach. Exit status 69 when a broker \
            could not be reached (the rest is erased; run it again once it is up). See Docs/Devices.md.
            """)

    @OptionGroup var stateFile: StateFileOption

    @Argument(help: "People, devices or beacons to forget.")
    var who: [String]

    func run() async throws {
        let (configuration, path) = try stateFile.load(missing: "there is no state to erase from")
        var beacons: [BeaconID] = []
        // A person's topics are named by their name, and under pseudonyms by the written one too.
        let people = configuration.people.filter { person in who.contains(where: person.isNamed) }.flatMap {
            [$0.name] + $0.aliases
        }
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
            for part in [presence, RotationSchedule.olderPart(of: presence)] {
                do {
                    let removed = try Self.filterPresence(part, without: beacons)
                    if part == presence || removed > 0 { output.write("  \(part): \(removed) presence lines") }
                } catch {
                    output.flush()
                    printError("error: cannot rewrite the presence file \(part): \(error)")
                    throw ExitCode(74)
                }
            }
        }
        var unreachable: [String] = []
        for sink in configuration.sinks {
            guard let settings = sink.settings as? MQTTSinkSettings else { continue }
            let erasure = RetainedTopicErasure(beacons: beacons, people: people, settings: settings)
            guard !erasure.topics.isEmpty else { continue }
            do {
                let cleared = try await erasure.erase()
                let entities = settings.homeAssistant == nil ? "" : " (Home Assistant removes their entities)"
                output.write(
                    "  sink '\(sink.name)' (\(settings.host):\(settings.port)): \(cleared) retained topics cleared\(entities)")
            } catch {
                unreachable.append(sink.name)
                output.write("  sink '\(sink.name)' (\(settings.host):\(settings.port)): NOT cleared: \(error)")
                // The ledger keeps them: the daemon clears what it remembers announcing once they are un-named.
                continue
            }
            do {
                let removed = try RetainedTopicErasure.forgetInLedger(beacons, people: people, settings: settings)
                if removed > 0, let ledger = settings.homeAssistantLedgerPath {
                    output.write("  \(ledger): \(removed) announced entries")
                }
            } catch {
                output.flush()
                printError("error: cannot rewrite the Home Assistant ledger \(settings.homeAssistantLedgerPath ?? ""): \(error)")
                throw ExitCode(74)
            }
        }
        if let record = configuration.source?.recordPath {
            let limit =
                configuration.retention.recordings.map { "; they are kept \($0.approximate) at most (retention.recordings)" }
                ?? ""
            output.write(
                "  not reached: the radio's recording \(record) holds raw packets, which are not edited\(limit); delete it to erase them now"
            )
        }
        let receivers = configuration.sinks.map(\.name)
        if !receivers.isEmpty {
            output.write(
                "  not reached: the alert events the sinks delivered (\(receivers.joined(separator: ", "))) belong to their receivers"
                    + " (Home Assistant's recorder keeps its own history until it purges it)")
        }
        output.flush()
        if !unreachable.isEmpty {
            printError(
                "error: the broker of \(unreachable.map { "'\($0)'" }.joined(separator: ", ")) could not be reached: its retained "
                    + "topics are not cleared; run the same command again once it is up (the rest is erased)")
            throw ExitCode(69)
        }
    }

    /// The identities `text` names in `configuration`: a person's members, or one identity (a
    /// beacon id of a device no longer enrolled too: its data may still be kept).
    static func identities(_ text: String, in configuration: GatewayConfiguration) -> [BeaconID]? {
        var ids: [BeaconID]
        if let person = configuration.people.first(where: { $0.isNamed(text) }) {
            ids = person.members
        } else if let id = configuration.beacons.identity(named: text) ?? BeaconID(text) {
            ids = [id]
        } else {
            return nil
        }
        guard configuration.pseudonymous else { return ids }
        // Under pseudonyms, what was kept before they were turned on carries the written ids.
        for (alias, id) in configuration.beacons.aliases where ids.contains(id) {
            if let written = BeaconID(alias), written.kind == .device, !ids.contains(written) { ids.append(written) }
        }
        return ids
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
