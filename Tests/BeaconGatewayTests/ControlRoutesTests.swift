import BeaconControl
import BeaconCore
import BeaconGateway
import Foundation
import Synchronization
import Testing

/// The control endpoint's answers, without a network: each route, each refusal.
@Suite("ControlRoutes")
struct ControlRoutesTests {
    final class Posted: Sendable {
        let events = Mutex<[(String, BeaconID?)]>([])
    }

    static func routes(_ posted: Posted, failing: Bool = false) -> ControlRoutes {
        ControlRoutes(
            metrics: { "# TYPE x counter\nx 1\n" }, health: { #"{"status":"ok"}"# },
            postEvent: { name, beacon in
                if failing { throw GatewayError.source("the state file is read-only") }
                posted.events.withLock { $0.append((name, beacon)) }
                return ExternalEventReceipt(
                    name: name, beacon: beacon, time: Timestamp(rfc3339: "2025-01-01T09:00:00Z")!, cancelled: 3)
            })
    }

    @Test("GET /metrics answers the Prometheus text format")
    func metrics() async {
        let response = await Self.routes(Posted()).respond(to: ControlRequest(method: "GET", target: "/metrics"))
        #expect(response.status == 200)
        #expect(response.contentType == "text/plain; version=0.0.4; charset=utf-8")
        #expect(response.body == "# TYPE x counter\nx 1\n")
    }

    @Test("POST /events/NAME posts it for every beacon and answers 202 with the receipt")
    func postAll() async {
        let posted = Posted()
        let response = await Self.routes(posted).respond(to: ControlRequest(method: "POST", target: "/events/closing"))
        #expect(response.status == 202)
        #expect(response.body == #"{"event":"closing","beacon":null,"time":"2025-01-01T09:00:00.000Z","cancelled":3}"# + "\n")
        #expect(posted.events.withLock { $0.map(\.0) } == ["closing"])
        #expect(posted.events.withLock { $0.first?.1 } == .some(nil))
    }

    @Test(
        "?beacon= narrows the event to one beacon (percent-encoded or not)",
        arguments: [
            "/events/door-1.open?beacon=ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2",
            "/events/door-1.open?beacon=ibeacon%3AE2C56DB5-DFFB-48D2-B060-D0F5A71096E0%3A1%3A2",
        ])
    func postOne(target: String) async {
        let posted = Posted()
        let response = await Self.routes(posted).respond(to: ControlRequest(method: "POST", target: target))
        #expect(response.status == 202)
        let expected = BeaconID.iBeacon(uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 2)
        #expect(posted.events.withLock { $0.first?.0 } == "door-1.open")
        #expect(posted.events.withLock { $0.first?.1 } == expected)
    }

    @Test(
        "refusals say what is wrong: status and message",
        arguments: [
            ("GET", "/events/closing", 405, "use POST"),
            ("POST", "/metrics", 405, "use GET"),
            ("GET", "/nothing", 404, "GET /metrics"),
            ("POST", "/events/", 400, "is not an event name"),
            ("POST", "/events/a%20b", 400, "is not an event name"),
            ("POST", "/events/" + String(repeating: "x", count: 65), 400, "1–64"),
            ("POST", "/events/closing?beacon=12", 400, "is not a beacon id"),
        ])
    func refusals(method: String, target: String, status: Int, message: String) async {
        let posted = Posted()
        let response = await Self.routes(posted).respond(to: ControlRequest(method: method, target: target))
        #expect(response.status == status)
        #expect(response.body.contains(message), "\(response.body)")
        #expect(response.body.hasPrefix(#"{"error":""#))
        #expect(posted.events.withLock { $0.isEmpty })
    }

    @Test("a failure to apply the event is a 500 that says why")
    func failure() async {
        let response = await Self.routes(Posted(), failing: true).respond(
            to: ControlRequest(method: "POST", target: "/events/closing"))
        #expect(response.status == 500)
        #expect(response.body.contains("read-only"))
    }

    @Test(
        "with a token, a request without it or with another is refused (401) and reaches no route",
        arguments: [
            nil, "Bearer wrong-token-0123456789", "Bearer 0123456789abcdef012", "Bearer 0123456789abcdef01234",
            "0123456789abcdef0123", "Basic 0123456789abcdef0123",
            // The token followed by 256 more bytes: lengths compared modulo 256 would let it in.
            "Bearer 0123456789abcdef0123" + String(repeating: "x", count: 256),
        ] as [String?])
    func tokenRefused(authorization: String?) async {
        let posted = Posted()
        var routes = Self.routes(posted)
        routes.bearerToken = "0123456789abcdef0123"
        for request in [
            ControlRequest(method: "GET", target: "/metrics", authorization: authorization),
            ControlRequest(method: "POST", target: "/events/closing", authorization: authorization),
        ] {
            let response = await routes.respond(to: request)
            #expect(response.status == 401)
            #expect(response.body.contains("Authorization: Bearer <token>"))
        }
        #expect(posted.events.withLock { $0.isEmpty })
    }

    @Test("with a token, a request that carries it is answered")
    func tokenAccepted() async {
        let posted = Posted()
        var routes = Self.routes(posted)
        routes.bearerToken = "0123456789abcdef0123"
        let metrics = await routes.respond(
            to: ControlRequest(method: "GET", target: "/metrics", authorization: "Bearer 0123456789abcdef0123"))
        #expect(metrics.status == 200)
        let post = await routes.respond(
            to: ControlRequest(method: "POST", target: "/events/closing", authorization: "Bearer 0123456789abcdef0123"))
        #expect(post.status == 202)
        #expect(posted.events.withLock { $0.map(\.0) } == ["closing"])
    }
}
