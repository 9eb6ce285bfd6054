import ArgumentParser
import Foundation

/// `beacond shadow FILE` / `beacond shadow --stop`: runs a candidate alert set beside a running
/// daemon's live one, or stops it.
struct ShadowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shadow",
        abstract: "Runs a candidate alert set beside a running daemon's live one, without delivering its alerts.",
        discussion: """
            Sends FILE (an alerts file: its alerts: list is taken, other keys are ignored) to the daemon, \
            which runs it on the same cycles as its live alerts from now on, in place of a shadow that runs. \
            Its events go to the daemon's log ("shadow event"), never to the sinks. GET /api/shadow (and \
            the page) shows what it would have changed since: deliveries added, dropped, earlier, later. \
            `beacond promote` makes it live; --stop stops it. \
            The same as: curl -X POST --data-binary @FILE 'http://127.0.0.1:9464/shadow?name=FILE'
            """
    )

    @Argument(help: ArgumentHelp("The candidate alert set.", valueName: "file"))
    var file: String?

    @Flag(help: "Stop the shadow that runs.")
    var stop = false

    @OptionGroup var endpoint: ControlEndpointOptions

    func validate() throws {
        if stop == (file != nil) { throw ValidationError("give the candidate FILE, or --stop") }
    }

    func run() async throws {
        guard let file else {
            try await endpoint.post("/shadow/stop")
            return
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            printError("error: cannot read \(file); check the path and permissions")
            throw ExitCode(2)
        }
        try await endpoint.post("/shadow", query: [("name", file)], body: Array(data))
    }
}
