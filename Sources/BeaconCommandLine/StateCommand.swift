import ArgumentParser
import BeaconGateway
import BeaconStore

/// `beacond state backup --config FILE --to PATH`: a consistent, flushed copy of the state file.
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Backs up the state file (alert state, strategy state, outbox, dead letters).",
        discussion: """
            beacond state backup --config gateway.yaml --to /var/backups/beacond/state-$(date +%F).sqlite
            The copy is taken with SQLite's online backup, so it is consistent while the daemon \
            runs, and is flushed to the disk before the command returns. To restore, stop the \
            daemon and put a copy in place of the state file. See Docs/Daemon.md for a daily timer.
            """,
        subcommands: [Backup.self]
    )

    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Writes a consistent copy of the state file.")

        @OptionGroup var stateFile: StateFileOption

        @Option(help: ArgumentHelp("Where to write the copy (replaced if it exists).", valueName: "path"))
        var to: String

        func run() throws {
            let (_, path) = try stateFile.load(missing: "there is nothing to back up")
            do {
                try SQLiteAlertStateStore(path: path).backup(to: to)
            } catch {
                printError("error: cannot back up \(path) to \(to): \(error)")
                throw ExitCode(74)
            }
            print("\(path) → \(to)")
        }
    }
}
