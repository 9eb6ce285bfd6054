/// One JSON document of the status API (see ``StatusAPI``): where it is served, the query it
/// takes, and how it is rendered from a ``StatusBoard/Snapshot``.
///
/// ``StatusRoutes`` reads the query first (a `400` when it cannot be read), then takes the
/// board's snapshot (a `503` when the pipeline has not answered), then renders the document.
protocol StatusAPIEndpoint {
    /// What the endpoint's query string says, read and checked.
    associatedtype Query: StatusAPIQuery

    /// The endpoint's path (`/api/beacons`).
    static var path: String { get }

    /// The document for `snapshot`, as `query` asks, with what else `routes` holds (the board's
    /// histories and alert log, the floor plan).
    static func document(_ snapshot: StatusBoard.Snapshot, query: Query, routes: StatusRoutes) -> String

    /// Why `query` names nothing in `snapshot` (a `404` with this message), or `nil`.
    static func missing(in snapshot: StatusBoard.Snapshot, query: Query) -> String?
}

extension StatusAPIEndpoint {
    /// Nothing is missing: every query of the endpoint has a document.
    static func missing(in snapshot: StatusBoard.Snapshot, query: Query) -> String? { nil }
}

/// An endpoint's typed query, read from the request's query string.
protocol StatusAPIQuery: Sendable {
    /// Reads `query`.
    /// - Throws: ``StatusQueryError`` (a `400`) for a value that cannot be used.
    init(_ query: StatusQuery) throws(StatusQueryError)
}
