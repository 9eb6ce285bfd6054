import BeaconControl
import BeaconCore
import BeaconGateway
import BeaconHTTP
import BeaconPipeline
import BeaconSite
import BeaconSiteReport
import BeaconTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The status page's endpoint: its token, and what a client that never reads or vanishes
/// costs (the server's buffers are bounded, the stream gives up, nothing else waits).
@Suite("The status page's endpoint: authentication and slow clients")
struct StatusEndpointTests {
    /// A board over a stand-in pipeline that counts its inspections; with `refresh` zero every
    /// request is a new refresh (a new event for a stream).
    /// Counts a stand-in pipeline's inspections.
    final class Counter: Sendable {
        let count = Atomic(0)
    }

    static func board(counting inspections: Counter = Counter(), refresh: Duration = .zero) -> StatusBoard {
        StatusBoard(
            sources: .init(
                sourceName: "test",
                inspect: {
                    inspections.count.add(1, ordering: .relaxed)
                    return PipelineInspection()
                }, outbox: { [] }),
            log: AlertLog(sinks: []), refreshInterval: refresh)
    }

    static func routes(
        token: String?, board: StatusBoard, streamInterval: Duration = .seconds(1), keepAlive: Duration = .seconds(15),
        floorPlan: FloorPlan? = nil
    ) -> ControlRoutes {
        ControlRoutes(
            metrics: { "" }, health: { "{}" },
            postEvent: { name, beacon in ExternalEventReceipt(name: name, beacon: beacon, time: .epoch, cancelled: 0) },
            bearerToken: token,
            status: StatusRoutes(
                board: board, floorPlan: floorPlan, streamInterval: streamInterval, keepAliveInterval: keepAlive))
    }

    @Test("with a token, the page and the API need it: as a Bearer, or as a browser's Basic password")
    func tokenGuardsThePage() async throws {
        let token = "0123456789abcdef-status"
        let routes = Self.routes(token: token, board: Self.board())
        func status(_ path: String, _ authorization: String?) async -> Int {
            await routes.respond(to: ControlRequest(method: "GET", target: path, authorization: authorization)).status
        }
        let basic = { (password: String) in "Basic " + Data("anyone:\(password)".utf8).base64EncodedString() }
        for path in ["/", "/api/status", "/api/beacons", "/api/events"] {
            #expect(await status(path, nil) == 401, "\(path)")
            #expect(await status(path, "Bearer wrong-token-of-length") == 401, "\(path)")
            #expect(await status(path, basic("not-the-token")) == 401, "\(path)")
            #expect(await status(path, basic(token)) == 200, "\(path)")
            #expect(await status(path, "Bearer \(token)") == 200, "\(path)")
        }
        #expect(await status("/", "Basic !!!not base64") == 401)
    }

    @Test("a refused request over HTTP asks a browser for the password (WWW-Authenticate: Basic)")
    func browserChallenge() async throws {
        let server = try await ControlServer.bind(
            host: "127.0.0.1", port: 0, routes: Self.routes(token: "0123456789abcdef-status", board: Self.board()))
        let serving = Task { try await server.run() }
        defer {
            server.close()
            serving.cancel()
        }
        // A raw client: an HTTP library offered Basic might answer the challenge by itself.
        let client = try RawClient(port: server.port)
        defer { client.close() }
        try client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let page = try await onOwnThread { try client.read(until: "\r\n\r\n") }
        #expect(page.hasPrefix("HTTP/1.1 401"), "\(page)")
        #expect(page.lowercased().contains(#"www-authenticate: basic realm="beacond""#), "\(page)")
        // The API answers a program with the Bearer challenge alone.
        let api = try await HTTPClient.shared.send(HTTPRequest(url: server.url + "/api/status", timeout: .seconds(10)))
        #expect(api.status == 401)
        let challenge: String = api.headers.first { $0.key.lowercased() == "www-authenticate" }?.value ?? ""
        #expect(challenge == #"Bearer realm="beacond""#, "\(api.headers)")
    }

    /// A client opens the event stream and never reads. The server writes events as fast as the
    /// connection takes them (a new refresh every millisecond); once the socket's buffers are
    /// full the writes wait, so no more events are made, and after the write timeout the
    /// connection is closed. Meanwhile another request is answered at once.
    @Test("a client that never reads holds bounded buffers, then is dropped; others are served meanwhile")
    func neverReadingClient() async throws {
        let inspections = Counter()
        let server = try await ControlServer.bind(
            host: "127.0.0.1", port: 0,
            routes: Self.routes(token: nil, board: Self.board(counting: inspections), streamInterval: .milliseconds(1)),
            streamWriteTimeout: .seconds(2))
        let serving = Task { try await server.run() }
        defer {
            server.close()
            serving.cancel()
        }
        let client = try RawClient(port: server.port, receiveBuffer: 4096)
        defer { client.close() }
        try client.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")

        // The producer stalls: the count of inspections stops growing while the client sleeps
        // (unchanged over four looks 0.5 s apart: a busy machine may pause the server briefly).
        var stalled = false
        var unchanged = 0
        var previous = -1
        for _ in 0..<240 where !stalled {
            try await Task.sleep(for: .milliseconds(500))
            let now = inspections.count.load(ordering: .relaxed)
            unchanged = now == previous ? unchanged + 1 : 0
            stalled = unchanged >= 3 && now > 0
            previous = now
        }
        let produced = inspections.count.load(ordering: .relaxed)
        // Each event is about 300 bytes: what is held is the socket buffers' worth (a 256 KiB
        // send buffer, 4 KiB received, 64 KiB in the channel), about 1,100 events; not more.
        #expect(produced < 3_000, "\(produced) events for a client that read nothing")

        let other = try await HTTPClient.shared.send(HTTPRequest(url: server.url + "/api/status", timeout: .seconds(5)))
        #expect(other.status == 200)

        // The stalled write gives up after its timeout: the stream closes.
        let closed = await realWorkFinishes(within: hangCeiling) { server.openStreams == 0 }
        #expect(closed, "the stream of a client that never reads was never closed")
    }

    @Test("a configured floor plan is served as its image, and /api/site places it")
    func floorPlan() async throws {
        let image = NSTemporaryDirectory() + "beacond-plan-\(UUID().uuidString).png"
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        try Data(bytes).write(to: URL(fileURLWithPath: image))
        defer { try? FileManager.default.removeItem(atPath: image) }
        let routes = Self.routes(token: nil, board: Self.board(), floorPlan: FloorPlan(image: image, min: (0, 0), max: (40, 20)))
        let served = await routes.respond(to: ControlRequest(method: "GET", target: "/api/site/floorplan"))
        #expect(served.status == 200)
        #expect(served.contentType == "image/png")
        #expect(served.bytes == bytes)
        let site = await routes.respond(to: ControlRequest(method: "GET", target: "/api/site"))
        let expected = #""floorPlan":{"image":"/api/site/floorplan","min":[0,0],"max":[40,20]}"#
        #expect(site.body.contains(expected), "\(site.body)")
        let none = await Self.routes(token: nil, board: Self.board())
            .respond(to: ControlRequest(method: "GET", target: "/api/site/floorplan"))
        #expect(none.status == 404)
    }

    /// A hub's status board whose pipeline shows `statistics` (and `layout`).
    static func hubBoard(_ statistics: PipelineStatistics, layout: SiteLayout? = nil) -> StatusBoard {
        StatusBoard(
            sources: .init(
                sourceName: "hub",
                inspect: {
                    var inspection = PipelineInspection()
                    inspection.statistics = statistics
                    inspection.site = layout
                    return inspection
                }, outbox: { [] }),
            log: AlertLog(sinks: []), refreshInterval: .zero)
    }

    @Test("/api/site says what the hub fused and what it refused, by reason; one gateway says zeros")
    func reportCounts() async throws {
        var statistics = PipelineStatistics()
        var site = SiteFusionStatistics()
        site.reports = 120
        site.records = 4800
        site.lateRecords = 7
        site.staleRecords = 3
        site.refusedReports = [.clock: 2, .malformed: 5, .unsigned: 0]
        statistics.site = site
        let board = Self.hubBoard(statistics)
        let document = await Self.routes(token: nil, board: board).respond(to: ControlRequest(method: "GET", target: "/api/site"))
        let expected = #""reports":{"fused":120,"records":4800,"late":7,"stale":3,"refused":{"clock":2,"malformed":5}}"#
        #expect(document.body.contains(expected), "\(document.body)")
        let gateway = await Self.routes(token: nil, board: Self.board())
            .respond(to: ControlRequest(method: "GET", target: "/api/site"))
        #expect(gateway.body.contains(#""reports":{"fused":0,"records":0,"late":0,"stale":0,"refused":{}}"#), "\(gateway.body)")
    }

    @Test("/api/site shows the hub's radio model and its latest fit; a hub that does not calibrate says null")
    func calibration() async throws {
        var status = CalibrationStatus(
            model: SiteRadioModel(pathLossExponent: 2.2, tagHeight: 1.2, receiveOffsets: [3, -2.5]), gateways: ["a", "b"])
        status.verdict = .applied
        status.reason = "held-back misfit 5.1 → 4.6 dB"
        status.fixes = 400
        status.anchorMeasurements = 120
        status.heldOutBefore = 5.1
        status.heldOutAfter = 4.6
        status.fits = 3
        status.applied = 1
        var site = SiteFusionStatistics()
        site.calibration = status
        var statistics = PipelineStatistics()
        statistics.site = site
        let board = Self.hubBoard(
            statistics, layout: try SiteLayout(gateways: [SiteGateway(id: "a"), SiteGateway(id: "b")]))
        let document = await Self.routes(token: nil, board: board).respond(to: ControlRequest(method: "GET", target: "/api/site"))
        let expected =
            #""calibration":{"verdict":"applied","reason":"held-back misfit 5.1 → 4.6 dB","exponent":2.2,"tagHeight":1.2,"#
            + #""offsets":{"a":3,"b":-2.5},"gatewayExponents":{},"fixes":400,"anchorMeasurements":120,"heldOut":{"before":5.1,"after":4.6},"#
            + #""exponentError":null,"fits":3,"applied":1,"fittedAt":null}"#
        #expect(document.body.contains(expected), "\(document.body)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calibration-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await StatusPageTests.validate(document.body, as: "site", in: directory)
        let gateway = await Self.routes(token: nil, board: Self.board())
            .respond(to: ControlRequest(method: "GET", target: "/api/site"))
        #expect(gateway.body.contains(#""calibration":null"#), "\(gateway.body)")
    }

    /// Serves `routes` and runs `body` with a client that has asked for `/api/events` (it has not
    /// read anything yet); the server stops after.
    static func withEventStream(
        _ routes: ControlRoutes, _ body: (ControlServer, RawClient) async throws -> Void
    ) async throws {
        let server = try await ControlServer.bind(host: "127.0.0.1", port: 0, routes: routes)
        let serving = Task { try await server.run() }
        defer {
            server.close()
            serving.cancel()
        }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        try client.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try await body(server, client)
    }

    @Test("a client that goes away ends its stream")
    func vanishedClient() async throws {
        let routes = Self.routes(token: nil, board: Self.board(), streamInterval: .milliseconds(50))
        try await Self.withEventStream(routes) { server, client in
            let head = try await onOwnThread { try client.read(until: "event: status") }
            #expect(head.contains("200 OK") && head.lowercased().contains("content-type: text/event-stream"), "\(head)")
            #expect(server.openStreams == 1)
            client.close()
            let ended = await realWorkFinishes(within: hangCeiling) { server.openStreams == 0 }
            #expect(ended)
        }
    }

    /// A quiet stream (the board refreshes once in an hour, a comment is due once an hour) has
    /// nothing to write, so no failed write can tell it the client left: the connection's close must.
    @Test("a client that leaves a quiet stream ends it without waiting for the next write")
    func vanishedClientOfAQuietStream() async throws {
        let routes = Self.routes(
            token: nil, board: Self.board(refresh: .seconds(3600)), streamInterval: .milliseconds(50),
            keepAlive: .seconds(3600))
        try await Self.withEventStream(routes) { server, client in
            _ = try await onOwnThread { try client.read(until: "event: status") }
            #expect(server.openStreams == 1)
            client.close()
            let ended = await realWorkFinishes(within: hangCeiling) { server.openStreams == 0 }
            #expect(ended, "the stream outlived its client")
        }
    }

    @Test("a quiet stream writes a comment once its keep-alive interval has passed")
    func quietStreamKeepsAlive() async throws {
        let routes = Self.routes(
            token: nil, board: Self.board(refresh: .seconds(3600)), streamInterval: .milliseconds(20),
            keepAlive: .milliseconds(200))
        try await Self.withEventStream(routes) { _, client in
            let received = try await onOwnThread { try client.read(until: ": still here\n\n") }
            let events = received.components(separatedBy: "event: status").count - 1
            #expect(events == 1, "the board did not refresh, so one status event only: \(received)")
        }
    }
}

/// A TCP client with a chosen receive buffer, that reads only when asked.
final class RawClient: @unchecked Sendable {
    private var fd: Int32

    init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    }

    /// Reads until `marker` has arrived (blocking).
    func read(until marker: String) throws -> String {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            let count = Glibc.read(fd, &chunk, chunk.count)
            guard count > 0 else { throw POSIXError(.ECONNRESET) }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
