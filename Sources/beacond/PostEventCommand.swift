import ArgumentParser
import BeaconControl
import BeaconCore
import BeaconGateway
import BeaconHTTP
import Foundation

/// `beacond post-event NAME`: posts a named event to a running daemon's HTTP endpoint, which
/// cancels the pending alerts whose `cancelOn` lists `{event: NAME}`.
struct PostEventCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post-event",
        abstract: "Posts a named event to a running daemon (its `http:` endpoint).",
        discussion: """
            The daemon cancels the pending alerts whose cancelOn lists {event: NAME}, for every beacon \
            or only --beacon. It prints the daemon's answer: {"event":…,"beacon":…,"time":…,"cancelled":N}.
            The same as: curl -X POST 'http://127.0.0.1:9464/events/NAME?beacon=ID'
            """
    )

    @Argument(help: "The event's name (letters, digits, '.', '_', '-').")
    var name: String

    @Option(help: ArgumentHelp("Only this beacon (ibeacon:UUID:major:minor, altbeacon:…, eddystone-uid:…).", valueName: "id"))
    var beacon: String?

    @Option(help: ArgumentHelp("The daemon's endpoint.", valueName: "url"))
    var to: String = "http://127.0.0.1:9464"

    @Option(
        help: ArgumentHelp(
            "A file whose first line is the endpoint's bearer token (its 'http: {tokenFile: …}'); "
                + "or set BEACOND_CONTROL_TOKEN.", valueName: "path"))
    var tokenFile: String?

    /// The token to send: --token-file's first line, else BEACOND_CONTROL_TOKEN, else none.
    func token() throws -> String? {
        if let tokenFile {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                printError("error: cannot read the token file \(tokenFile); check the path and permissions")
                throw ExitCode(2)
            }
            return text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return ProcessInfo.processInfo.environment["BEACOND_CONTROL_TOKEN"]
    }

    func validate() throws {
        guard ControlRoutes.isValidEventName(name) else {
            throw ValidationError("'\(name)' is not an event name: use 1–64 letters, digits, '.', '_' or '-'")
        }
        if let beacon, BeaconID(beacon) == nil {
            throw ValidationError(
                "'\(beacon)' is not a beacon id: write ibeacon:UUID:major:minor, altbeacon:UUID:id2:id3 "
                    + "or eddystone-uid:NAMESPACE:INSTANCE")
        }
    }

    func run() async throws {
        let base = to.hasSuffix("/") ? String(to.dropLast()) : to
        var url = "\(base)/events/\(name)"
        if let beacon { url += "?beacon=" + beacon } // ids are letters, digits, '-' and ':' only
        let headers = try token().map { [(name: "Authorization", value: "Bearer \($0)")] } ?? []
        let outcome: Result<(Int, String), HTTPClientError>
        do {
            // A daemon answers in milliseconds.
            let response = try await HTTPClient.shared.send(
                HTTPRequest(method: "POST", url: url, headers: headers, timeout: .seconds(5)),
                maximumBodySize: 1 << 20)
            outcome = .success((response.status, String(decoding: response.body, as: UTF8.self)))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let (status, body)) where (200..<300).contains(status):
            print(body, terminator: body.hasSuffix("\n") ? "" : "\n")
        case .success(let (status, body)):
            printError("error: the daemon at \(base) answered \(status): \(body.trimmingSuffixNewline)")
            throw ExitCode(1)
        case .failure(let error):
            printError(
                "error: cannot reach a daemon at \(base) (\(error)); is `beacond run` running with "
                    + "'http: {listen: …}' in its configuration, and is --to its address?")
            throw ExitCode(69)
        }
    }
}

private extension String {
    var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
