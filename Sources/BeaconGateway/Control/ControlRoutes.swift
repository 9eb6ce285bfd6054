import BeaconCore

/// What the control endpoint answers, independent of the HTTP server that carries it:
///
/// | request | answer |
/// |---|---|
/// | `GET /metrics` | every metric, Prometheus text format 0.0.4 |
/// | `GET /health` | `{"status":"ok",…}` |
/// | `POST /events/NAME` | posts the named event for every beacon; `?beacon=ID` for one (`ibeacon:UUID:1:2`) |
///
/// A posted event cancels the pending alerts whose `cancelOn` lists `{event: NAME}`; the answer
/// (`202`) says how many. Names are 1–64 characters of letters, digits, `.`, `_` and `-`.
public struct ControlRoutes: Sendable {
    /// The metrics in the Prometheus text format.
    public var metrics: @Sendable () -> String
    /// A JSON object describing the daemon's state.
    public var health: @Sendable () -> String
    /// Applies a named event (for one beacon, or all).
    public var postEvent: @Sendable (_ name: String, _ beacon: BeaconID?) async throws -> ExternalEventReceipt

    /// Creates routes from what they serve.
    public init(
        metrics: @escaping @Sendable () -> String, health: @escaping @Sendable () -> String,
        postEvent: @escaping @Sendable (_ name: String, _ beacon: BeaconID?) async throws -> ExternalEventReceipt
    ) {
        self.metrics = metrics
        self.health = health
        self.postEvent = postEvent
    }

    static let eventsPrefix = "/events/"

    /// Answers one request.
    public func respond(to request: ControlRequest) async -> ControlResponse {
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
        default:
            return .error(404, "no such endpoint: \(request.path); try GET /metrics, GET /health or POST /events/NAME")
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
