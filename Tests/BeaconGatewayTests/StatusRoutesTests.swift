import BeaconControl
import BeaconGateway
import BeaconTestSupport
import Foundation
import Synchronization
import Testing

/// The status page's routes without a network: the page is the embedded resource with its
/// headers, and each endpoint reads its query into typed values, refusing what it cannot use.
@Suite("StatusRoutes")
struct StatusRoutesTests {
    static func get(_ target: String, _ routes: ControlRoutes) async -> ControlResponse {
        await routes.respond(to: ControlRequest(method: "GET", target: target))
    }

    @Test("GET / is Status/Resources/status.html byte for byte, with its CSP, not cached; so is /index.html")
    func pageIsTheResource() async throws {
        let routes = StatusEndpointTests.routes(token: nil, board: StatusEndpointTests.board())
        let file = try Data(
            contentsOf: URL(fileURLWithPath: TestPaths.repositoryRoot + "/Sources/BeaconControl/Status/Resources/status.html"))
        for path in ["/", "/index.html"] {
            let page = await Self.get(path, routes)
            #expect(page.status == 200)
            #expect(page.contentType == "text/html; charset=utf-8")
            #expect(Array(page.body.utf8) == Array(file), "\(path) is not the resource file")
            #expect(
                page.headers.map { "\($0.name): \($0.value)" } == [
                    "Cache-Control: no-cache",
                    "Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                        + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
                ])
        }
    }

    @Test(
        "a query value an endpoint cannot use is a 400 that names it and says what to give; the pipeline is not asked",
        arguments: [
            (
                "/api/beacons?sort=colour",
                "sort=colour is not one of id, name, title, proximity, room, distance, rssi, lastSeen, addresses"
            ),
            ("/api/beacons?order=sideways", "order=sideways is not one of asc, desc"),
            (
                "/api/beacons?limit=ten",
                "limit=ten is not a whole number: give at most how many beacons to list, 0 to 1000 (default 100)"
            ),
            ("/api/beacons?offset=1.5", "offset=1.5 is not a whole number: give the first row to list, from 0 (default 0)"),
            ("/api/beacons/history", "give the beacon as ?id=ibeacon:UUID:major:minor (or altbeacon:…, eddystone-uid:…)"),
            ("/api/beacons/history?id=visitor-1", "id=visitor-1 is not a beacon: give it as ibeacon:UUID:major:minor"),
            ("/api/strategies?limit=all", "limit=all is not a whole number: give at most how many beacons' states"),
            (
                "/api/alerts?after=latest",
                "after=latest is not a whole number: give the sequence of the newest log entry you have"
            ),
            ("/api/alerts?limit=%2B%2B", "limit=++ is not a whole number: give at most how many log entries to list, 0 to 500"),
            ("/api/site?limit=1e3", "limit=1e3 is not a whole number: give at most how many positioned beacons to list"),
        ])
    func malformedQuery(target: String, message: String) async throws {
        let inspections = StatusEndpointTests.Counter()
        let routes = StatusEndpointTests.routes(token: nil, board: StatusEndpointTests.board(counting: inspections))
        let response = await Self.get(target, routes)
        #expect(response.status == 400)
        #expect(response.body.contains(message), "\(response.body)")
        #expect(inspections.count.load(ordering: .relaxed) == 0)
    }

    @Test("an empty value is the default and a number out of range is clamped: the page's windows are always answered")
    func lenientValues() async throws {
        let routes = StatusEndpointTests.routes(token: nil, board: StatusEndpointTests.board())
        for target in [
            "/api/beacons?sort=&order=&filter=&offset=&limit=", "/api/beacons?offset=-30&limit=5000&sort=rssi&order=desc",
            "/api/strategies?limit=-1", "/api/alerts?after=-50&limit=100000", "/api/site?limit=99999999", "/api/status?x=y",
        ] {
            let response = await Self.get(target, routes)
            #expect(response.status == 200, "\(target): \(response.body)")
        }
        #expect(await Self.get("/api/beacons?offset=-30", routes).body.contains(#""total":0,"offset":0,"beacons":[]"#))
    }
}
