import ArgumentParser
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconSinks
import BeaconStore

/// `beacond outbox list|retry|drop --config FILE`: the events a sink gave up on (its dead letters).
struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "Lists, retries or drops the events a sink gave up on (its dead letters).",
        discussion: """
            A sink gives up on an event after a permanent failure (an HTTP 4xx other than 408/429, \
            a URL that is not one) or after its attempts are used up; the event then waits among \
            the dead letters of the state file (`state:`) and the sink goes on with the others.
              beacond outbox list  --config gateway.yaml                    one JSON line each
              beacond outbox retry --config gateway.yaml [--sink S] [--id N …]
              beacond outbox drop  --config gateway.yaml [--sink S] [--id N …]
            Retried events go back to the end of their sink's outbox: a running daemon sends them \
            with its next delivery to that sink, or at its next start.
            """,
        subcommands: [List.self, Retry.self, Drop.self]
    )

    /// What every action takes: the configuration, and which sink and letters.
    struct Selection: ParsableArguments {
        @OptionGroup var stateFile: StateFileOption

        @Option(help: ArgumentHelp("Only this sink (its name in the configuration; all sinks by default).", valueName: "name"))
        var sink: String?

        @Option(name: .customLong("id"), help: ArgumentHelp("Only these dead letters (ids from `list`).", valueName: "n"))
        var ids: [Int64] = []

        /// The store and the sinks chosen, or a clear error.
        func open() throws -> (store: SQLiteAlertStateStore, sinks: [String]) {
            let (configuration, path) = try stateFile.load(
                missing: "without one, dead letters live only in the running daemon's memory and are gone when it "
                    + "stops; add `state: /var/lib/beacond/state.sqlite`")
            let names = configuration.sinks.map(\.name)
            if let sink, !names.contains(sink) {
                printError("error: no sink named '\(sink)' in \(stateFile.config); its sinks: \(names.joined(separator: ", "))")
                throw ExitCode(2)
            }
            do {
                let store = try SQLiteAlertStateStore(
                    path: path, outbox: OutboxConfiguration(sinks: names, maxBacklog: configuration.maxBacklog))
                return (store, sink.map { [$0] } ?? names)
            } catch {
                printError("error: cannot open the state file \(path): \(error)")
                throw ExitCode(74)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Prints each dead letter as a JSON line.")
        @OptionGroup var selection: Selection

        func run() throws {
            let (store, sinks) = try selection.open()
            var count = 0
            for sink in sinks {
                for letter in try store.deadLetters(sink: sink)
                where selection.ids.isEmpty || selection.ids.contains(letter.id) {
                    var json = JSONWriter()
                    json.object { object in
                        object.member("id", Int(letter.id))
                        object.member("sink", letter.sink)
                        object.member("key", letter.event.key)
                        object.member("attempts", letter.attempts)
                        object.member("lastError", letter.lastError)
                        object.member("destination", letter.event.destination)
                        object.member("body", letter.event.body)
                    }
                    print(json.string)
                    count += 1
                }
            }
            printError("\(count) dead letter(s)")
        }
    }

    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Moves dead letters back to their sink's outbox.")
        @OptionGroup var selection: Selection

        func run() throws {
            let (store, sinks) = try selection.open()
            for sink in sinks {
                let moved = try store.retryDeadLetters(sink: sink, ids: selection.ids.isEmpty ? nil : selection.ids)
                if moved > 0 { print("\(sink): \(moved) dead letter(s) back in the outbox") }
            }
        }
    }

    struct Drop: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forgets dead letters.")
        @OptionGroup var selection: Selection

        func run() throws {
            let (store, sinks) = try selection.open()
            for sink in sinks {
                let dropped = try store.dropDeadLetters(sink: sink, ids: selection.ids.isEmpty ? nil : selection.ids)
                if dropped > 0 { print("\(sink): \(dropped) dead letter(s) dropped") }
            }
        }
    }
}
