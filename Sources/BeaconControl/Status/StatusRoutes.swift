import BeaconSite
import Foundation

/// The status page and its API on the control endpoint (`Docs/Daemon.md` lists the documents):
/// `GET /` is the page, `GET /api/events` a stream of Server-Sent Events (one `status` event per
/// refresh, at most one a second, only while the page is open).
public struct StatusRoutes: Sendable {
    /// Where the data comes from.
    public let board: StatusBoard
    /// A site's floor plan, if configured.
    public let floorPlan: FloorPlan?
    /// How often the event stream looks for a new refresh.
    public let streamInterval: Duration
    /// How long the event stream may stay quiet before it writes a comment (keeping proxies
    /// from closing it).
    public let keepAliveInterval: Duration

    /// Creates the routes.
    public init(
        board: StatusBoard, floorPlan: FloorPlan? = nil, streamInterval: Duration = .seconds(1),
        keepAliveInterval: Duration = .seconds(15)
    ) {
        self.board = board
        self.floorPlan = floorPlan
        self.streamInterval = streamInterval
        self.keepAliveInterval = keepAliveInterval
    }

    /// Answers `request` when its path is the page's or its API's; `nil` otherwise.
    func respond(to request: ControlRequest) async -> ControlResponse? {
        let path = request.path
        guard path == "/" || path == "/index.html" || path.hasPrefix("/api/") else { return nil }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .error(405, "\(request.method) \(path) is not supported; use GET")
        }
        if path == "/" || path == "/index.html" {
            var page = ControlResponse(status: 200, contentType: "text/html; charset=utf-8", body: StatusPage.html)
            page.headers = [("Cache-Control", "no-cache"), ("Content-Security-Policy", StatusPage.contentSecurityPolicy)]
            return page
        }
        if path == "/api/events" { return events() }
        if path == "/api/site/floorplan" { return floorPlanImage() }
        guard let endpoint = StatusAPI.endpoints.first(where: { $0.path == path }) else {
            return .error(
                404,
                "no such endpoint: \(path); the API has /api/status, /api/events, /api/beacons, /api/beacons/history, "
                    + "/api/strategies, /api/explain, /api/alerts and /api/site (Docs/Daemon.md)")
        }
        return await document(endpoint, for: request)
    }

    /// `endpoint`'s document: its query read (`400` when it cannot be), then the board's
    /// snapshot (`503` when the pipeline has not answered), then the document rendered.
    private func document<Endpoint: StatusAPIEndpoint>(
        _ endpoint: Endpoint.Type, for request: ControlRequest
    ) async -> ControlResponse {
        let query: Endpoint.Query
        do throws(StatusQueryError) {
            query = try Endpoint.Query(StatusQuery(request.query))
        } catch {
            return .error(400, error.message)
        }
        let snapshot: StatusBoard.Snapshot
        do {
            snapshot = try await board.current()
        } catch {
            return .error(503, "the pipeline has not answered: \(error)")
        }
        if let missing = Endpoint.missing(in: snapshot, query: query) { return .error(404, missing) }
        return Self.json(Endpoint.document(snapshot, query: query, routes: self))
    }

    private static func json(_ body: String) -> ControlResponse {
        var response = ControlResponse(status: 200, body: body + "\n")
        response.headers = [("Cache-Control", "no-cache")]
        return response
    }

    /// `text/event-stream`: a `status` event (the `/api/status` document) whenever the board
    /// has refreshed, checked every ``streamInterval``; a comment after ``keepAliveInterval``
    /// without one (by the clock, however late the checks run) keeps proxies from closing a
    /// quiet stream. One event is written at a time, each waiting for the client.
    private func events() -> ControlResponse {
        let routes = self
        let board = board
        let interval = streamInterval
        let keepAlive = keepAliveInterval
        return ControlResponse(contentType: "text/event-stream") { write in
            let clock = ContinuousClock()
            try await write("retry: 2000\n\n")
            var sent = 0
            var lastWrite = clock.now
            while !Task.isCancelled {
                if let snapshot = try? await board.current(), snapshot.version != sent {
                    sent = snapshot.version
                    let status = StatusSummaryEndpoint.document(snapshot, query: .init(), routes: routes)
                    try await write("event: status\ndata: \(status)\n\n")
                    lastWrite = clock.now
                } else if clock.now - lastWrite >= keepAlive {
                    try await write(": still here\n\n")
                    lastWrite = clock.now
                }
                try await Task.sleep(for: interval)
            }
        }
    }

    private func floorPlanImage() -> ControlResponse {
        guard let floorPlan else { return .error(404, "no floor plan is configured (hub: {floorPlan: {image: …}})") }
        guard let data = FileManager.default.contents(atPath: floorPlan.image) else {
            return .error(500, "cannot read the floor plan image \(floorPlan.image)")
        }
        var response = ControlResponse(status: 200, contentType: floorPlan.contentType, body: "")
        response.bytes = [UInt8](data)
        return response
    }
}
