import BeaconCore
import BeaconPipeline

/// `POST /shadow`, `POST /shadow/promote` and `POST /shadow/stop`: a candidate alert set run
/// beside the live one (`Docs/Strategies.md`, "Trying a change"), token-protected like every
/// route.
///
/// | request | does |
/// |---|---|
/// | `POST /shadow?name=NAME` with an alert set as the body (YAML or JSON: `alerts:` and its list, as a remote set) | runs it as the shadow from now on, in place of one that runs |
/// | `POST /shadow/promote` | makes the shadow's alerts the live ones (until a restart) and stops it |
/// | `POST /shadow/stop` | stops the shadow |
///
/// `GET /api/shadow` says what the shadow would have changed. Answers: `200` with what was
/// done; `400` for a set that cannot run (the message says which alert and why); `409` for a
/// promotion or a stop with no shadow.
enum ShadowRoute {
    static let path = "/shadow"

    static func respond(_ request: ControlRequest, shadow: @Sendable (ShadowControlRequest) async throws -> ShadowOutcome) async
        -> ControlResponse
    {
        guard request.method == "POST" else {
            return .error(405, "\(request.method) \(request.path) is not supported; use POST")
        }
        let command: ShadowControlRequest
        switch request.path {
        case path:
            guard !request.body.isEmpty else {
                return .error(400, "POST /shadow takes the candidate alert set as its body (beacond shadow FILE sends one)")
            }
            let name = request.query["name"].flatMap { $0.isEmpty ? nil : String($0.prefix(128)) } ?? "POST /shadow"
            command = .start(name: name, document: request.body)
        case path + "/promote": command = .promote
        case path + "/stop": command = .stop
        default:
            return .error(404, "no such endpoint: \(request.path); try POST /shadow, /shadow/promote or /shadow/stop")
        }
        do {
            let outcome = try await shadow(command)
            var json = JSONWriter()
            json.object { object in
                object.member("action", outcome.action.rawValue)
                object.member("candidate", outcome.name)
                object.key("alerts")
                object.array { array in for id in outcome.alertIDs { array.value(id) } }
                object.member("message", outcome.summary)
            }
            return ControlResponse(status: 200, body: json.string + "\n")
        } catch let refusal as ShadowRequest.Refusal {
            return .error(409, refusal.description)
        } catch let error as ShadowCandidateError {
            return .error(400, error.description)
        } catch {
            return .error(500, "the shadow request was not done: \(error)")
        }
    }
}

/// What the control endpoint asks of the daemon's shadow.
public enum ShadowControlRequest: Sendable, Equatable {
    /// Run the alert set `document` (YAML or JSON) as the shadow, named `name`.
    case start(name: String, document: [UInt8])
    /// Make the shadow's alerts live.
    case promote
    /// Stop the shadow.
    case stop
}

/// A candidate alert set that cannot run: answered `400` with this message.
public struct ShadowCandidateError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and where.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
