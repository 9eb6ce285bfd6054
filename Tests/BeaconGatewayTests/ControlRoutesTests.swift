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
}
