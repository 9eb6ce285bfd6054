import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import Foundation

/// What the control endpoint answers, independent of the HTTP server that carries it:
///
/// | request | answer |
/// |---|---|
/// | `GET /metrics` | every metric, Prometheus text format 0.0.4 |
/// | `GET /health` | `{"status":"ok",…}` |
/// | `POST /events/NAME` | posts the named event for every beacon; `?beacon=ID` for one (`ibeacon:UUID:1:2`) |
/// | `POST /alerts/acknowledge`, `/alerts/dismiss`, `/alerts/cancel`, `/alerts/unsuppress` | answers or cancels an alert instance (`Docs/AlertEngine.md`) |
/// | `POST /shadow`, `/shadow/promote`, `/shadow/stop` | a candidate alert set beside the live one (`Docs/Strategies.md`) |
/// | `POST /reload` | re-reads the configuration file, as `SIGHUP` does: `200` with the ``ReloadStatus`` when it was applied or unchanged, `409` when the running configuration stayed |
/// | `GET /`, `GET /api/…` | the status page and its API (``StatusRoutes``), when the daemon has one |
///
/// A posted event cancels the pending alerts whose `cancelOn` lists `{event: NAME}`; the answer
/// (`202`) says how many. Names are 1–64 characters of letters, digits, `.`, `_` and `-`.
///
/// With a ``bearerToken`` every request must carry `Authorization: Bearer <token>`, or — what a
/// browser sends once it has asked for the password — `Authorization: Basic` with the token as
/// the password (any user name); both compared in constant time. Any other request is answered
/// `401` and reaches no route.
public struct ControlRoutes: Sendable {
    /// The metrics in the Prometheus text format.
    public var metrics: @Sendable () -> String
    /// A JSON object describing the daemon's state.
    public var health: @Sendable () -> String
    /// Applies a named event (for one beacon, or all).
    public var postEvent: @Sendable (_ name: String, _ beacon: BeaconID?) async throws -> ExternalEventReceipt
    /// Applies an answer to a delivered alert (acknowledge, dismiss, lift a suppression).
    public var answer: @Sendable (AlertAnswerRequest) async throws -> AlertAnswerOutcome
    /// Starts, promotes or stops the shadow alert set.
    public var shadow: @Sendable (ShadowControlRequest) async throws -> ShadowOutcome
    /// Re-reads the configuration file (`nil`: the daemon has no file to re-read).
    public var reload: (@Sendable () async -> ReloadStatus)?
    /// The token every request must carry (`nil`: none needed).
    public var bearerToken: String?
    /// The status page and its API, if served.
    public var status: StatusRoutes?

    /// Creates routes from what they serve.
    public init(
        metrics: @escaping @Sendable () -> String, health: @escaping @Sendable () -> String,
        postEvent: @escaping @Sendable (_ name: String, _ beacon: BeaconID?) async throws -> ExternalEventReceipt,
        answer: @escaping @Sendable (AlertAnswerRequest) async throws -> AlertAnswerOutcome = { _ in
            throw ControlServerError("this endpoint takes no answers to alerts (it has no alert engine)")
        },
        shadow: @escaping @Sendable (ShadowControlRequest) async throws -> ShadowOutcome = { _ in
            throw ShadowCandidateError("this endpoint runs no shadow (it has no alert engine)")
        },
        bearerToken: String? = nil, status: StatusRoutes? = nil
    ) {
        self.answer = answer
        self.shadow = shadow
        self.status = status
        self.metrics = metrics
        self.health = health
        self.postEvent = postEvent
        self.bearerToken = bearerToken
    }

    /// Whether `request` may be answered: no token is needed, or it carries the right one.
    func isAuthorized(_ request: ControlRequest) -> Bool {
        guard let bearerToken else { return true }
        let authorization = request.authorization ?? ""
        var given = Array(authorization.utf8)
        if authorization.hasPrefix("Basic ") {
            // base64(user:password): the password is the token.
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6))).map { Array($0) } ?? []
            given = Array("Bearer ".utf8) + (decoded.firstIndex(of: UInt8(ascii: ":")).map { Array(decoded[($0 + 1)...]) } ?? [])
        }
        let expected = Array("Bearer \(bearerToken)".utf8)
        // Constant time in the token's length: every byte is compared, whatever differs first.
        var difference: UInt8 = expected.count == given.count ? 0 : 1
        for index in expected.indices { difference |= expected[index] ^ (index < given.count ? given[index] : 0) }
        return difference == 0
    }

    static let eventsPrefix = "/events/"

    /// Answers one request.
    public func respond(to request: ControlRequest) async -> ControlResponse {
        guard isAuthorized(request) else {
            var refused = ControlResponse.error(
                401,
                "this endpoint needs 'Authorization: Bearer <token>' with the token of its 'http:' configuration "
                    + "(beacond post-event --token-file PATH), or the token as the password of the page")
            refused.headers = [("WWW-Authenticate", #"Bearer realm="beacond""#)]
            // The page asks a browser for the token as a password. Only the page: a programmatic
            // client offered Basic may try it on its own (libcurl does) instead of failing.
            if request.path == "/" || request.path == "/index.html" {
                refused.headers.append(("WWW-Authenticate", #"Basic realm="beacond", charset="UTF-8""#))
            }
            return refused
        }
        if let status, let response = await status.respond(to: request) { return response }
        switch request.path {
        case "/metrics":
            guard request.method == "GET" || request.method == "HEAD" else { return Self.methodNotAllowed(request, "GET") }
            return ControlResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: metrics())
        case "/health":
            guard request.method == "GET" || request.method == "HEAD" else { return Self.methodNotAllowed(request, "GET") }
            return ControlResponse(status: 200, body: health() + "\n")
        case let path where path.hasPrefix(Self.eventsPrefix):
            guard request.method == "POST" else { return Self.methodNotAllowed(request, "POST") }
            return await post(name: String(path.dropFirst(Self.eventsPrefix.count)), query: request.query)
        case let path where path.hasPrefix(AlertAnswerRoute.prefix):
            guard request.method == "POST" else { return Self.methodNotAllowed(request, "POST") }
            return await AlertAnswerRoute.respond(
                action: String(path.dropFirst(AlertAnswerRoute.prefix.count)), query: request.query, answer: answer)
        case let path where path == ShadowRoute.path || path.hasPrefix(ShadowRoute.path + "/"):
            return await ShadowRoute.respond(request, shadow: shadow)
        case "/reload":
            guard request.method == "POST" else { return Self.methodNotAllowed(request, "POST") }
            guard let reload else {
                return .error(404, "this daemon has no configuration file to reload (it was started without one)")
            }
            let status = await reload()
            return ControlResponse(status: status.outcome.isFailure ? 409 : 200, body: status.json + "\n")
        default:
            return .error(
                404,
                "no such endpoint: \(request.path); try GET /metrics, GET /health, POST /events/NAME, POST /alerts/acknowledge"
                    + (status == nil ? "" : " or GET / (the status page)"))
        }
    }

    private func post(name: String, query: [String: String]) async -> ControlResponse {
        guard Self.isValidEventName(name) else {
            return .error(400, "'\(name)' is not an event name: use 1–64 letters, digits, '.', '_' or '-' (POST /events/closing)")
        }
        var beacon: BeaconID?
        if let text = query["beacon"] {
            guard let id = BeaconID(text) else {
                return .error(
                    400,
                    "beacon '\(text)' is not a beacon id: write ibeacon:UUID:major:minor, "
                        + "altbeacon:UUID:id2:id3 or eddystone-uid:NAMESPACE:INSTANCE")
            }
            beacon = id
        }
        do {
            let receipt = try await postEvent(name, beacon)
            return ControlResponse(status: 202, body: receipt.json + "\n")
        } catch {
            return .error(500, "the event was not applied: \(error)")
        }
    }

    /// 1–64 characters of ASCII letters, digits, `.`, `_`, `-`.
    public static func isValidEventName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    private static func methodNotAllowed(_ request: ControlRequest, _ allowed: String) -> ControlResponse {
        .error(405, "\(request.method) \(request.path) is not supported; use \(allowed)")
    }
}
