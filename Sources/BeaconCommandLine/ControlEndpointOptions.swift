import ArgumentParser
import BeaconHTTP
import Foundation

/// `--to` and `--token-file`: how a command reaches a running daemon's control endpoint, and the
/// one request it sends (a `POST`), printing the answer.
struct ControlEndpointOptions: ParsableArguments {
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

    /// `path` with `query` percent-encoded.
    static func target(_ path: String, query: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~:")
        let pairs = query.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }
        return pairs.isEmpty ? path : path + "?" + pairs.joined(separator: "&")
    }

    /// POSTs to `path` with `query` (and `body`) and prints the answer; exits 1 on an error
    /// answer and 69 when no daemon answers.
    func post(_ path: String, query: [(String, String)] = [], body: [UInt8] = []) async throws {
        let base = to.hasSuffix("/") ? String(to.dropLast()) : to
        let url = base + Self.target(path, query: query)
        let headers = try token().map { [(name: "Authorization", value: "Bearer \($0)")] } ?? []
        let outcome: Result<(Int, String), HTTPClientError>
        do {
            // A daemon answers in milliseconds.
            let response = try await HTTPClient.shared.send(
                HTTPRequest(method: "POST", url: url, headers: headers, body: body, timeout: .seconds(5)),
                maximumBodySize: 1 << 20)
            outcome = .success((response.status, String(decoding: response.body, as: UTF8.self)))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let (status, body)) where (200..<300).contains(status):
            print(body, terminator: body.hasSuffix("\n") ? "" : "\n")
        case .success(let (status, body)):
            printError(
                "error: the daemon at \(base) answered \(status): \(body.hasSuffix("\n") ? String(body.dropLast()) : body)")
            throw ExitCode(1)
        case .failure(let error):
            printError(
                "error: cannot reach a daemon at \(base) (\(error)); is `beacond run` running with "
                    + "'http: {listen: …}' in its configuration, and is --to its address?")
            throw ExitCode(69)
        }
    }
}
