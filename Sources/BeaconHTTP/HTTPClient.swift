import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A small HTTP(S) client for beacond's few outgoing requests — webhook deliveries, remote
/// configuration fetches, `beacond post-event` — on the platform's URL loading (libcurl through
/// FoundationNetworking on Linux): TLS, proxies and redirects come from the system, and the
/// build compiles no TLS or HTTP/2 stack of its own.
///
/// Nothing is cached: every request goes to the server (conditional requests are the caller's,
/// with `If-None-Match` / `If-Modified-Since`), and no cookies are kept.
public struct HTTPClient: Sendable {
    private let session: URLSession

    /// A client with its own session (no cache, no cookies).
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    /// One client for the process.
    public static let shared = HTTPClient()

    /// Sends `request` and reads the whole answer (at most `maximumBodySize` bytes).
    /// - Throws: ``HTTPClientError``: an invalid URL, no answer in time, no connection, a body too large.
    public func send(_ request: HTTPRequest, maximumBodySize: Int = 4 << 20) async throws(HTTPClientError) -> HTTPResponse {
        guard request.url.hasPrefix("http://") || request.url.hasPrefix("https://"),
            let url = URL(string: request.url), url.host != nil
        else {
            throw .invalidURL(request.url)
        }
        // The request's deadline in `load` ends the exchange at the timeout. FoundationNetworking's
        // own timer is set a second later, as a backstop: it keeps whole seconds, and it takes a
        // timeout only through the property (the initializer's is not used: every request waited
        // for the session's default 60 s).
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData)
        urlRequest.timeoutInterval = (request.timeout / .seconds(1)).rounded(.up) + 1
        urlRequest.httpMethod = request.method
        for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await load(urlRequest, deadline: request.timeout)
        } catch let error as URLError where error.code == .timedOut {
            throw .timedOut(url: request.url, timeout: request.timeout)
        } catch {
            throw .failed(url: request.url, reason: (error as? URLError).map(Self.reason) ?? "\(error)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw .failed(url: request.url, reason: "not an HTTP response")
        }
        guard data.count <= maximumBodySize else { throw .bodyTooLarge(url: request.url, limit: maximumBodySize) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: Array(data))
    }

    /// `urlRequest`'s answer, or an error by `deadline` at the latest; cancelling the calling
    /// task ends the request at once.
    ///
    /// Not `URLSession.data(for:)`: on Linux it deadlocks when the task is cancelled while the
    /// answer is being handled (swift-corelibs-foundation #5412) — its cancellation handler, run
    /// under the task's status lock, waits for the session's work queue, which is resuming the
    /// task and waits for that lock. A `beacond run` stopped while a remote alert check was in
    /// flight never exited. Fixed upstream by swift-corelibs-foundation #5417 (in the swift-6.4
    /// snapshots). Here the cancel and the deadline end the caller's wait themselves
    /// (``PendingRequest``), and every call into the session — making, starting and stopping the
    /// task — runs on another thread.
    private func load(_ urlRequest: URLRequest, deadline: Duration) async throws -> (Data, URLResponse) {
        let pending = PendingRequest<(Data, URLResponse)>()
        let overdue = DispatchWorkItem { [weak pending] in pending?.end(throwing: URLError(.timedOut)) }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.dispatchInterval(deadline), execute: overdue)
        defer { overdue.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                pending.wait(on: continuation)
                // The task is made and started off Swift's cooperative pool: both wait for the
                // session's work queue.
                DispatchQueue.global().async {
                    let task = session.dataTask(with: urlRequest) { data, response, error in
                        if let response, error == nil {
                            pending.complete(.success((data ?? Data(), response)))
                        } else {
                            pending.complete(.failure(error ?? URLError(.badServerResponse)))
                        }
                    }
                    if pending.launch(stop: { task.cancel() }) { task.resume() } else { task.cancel() }
                }
            }
        } onCancel: {
            // Not here: this handler runs under the task's status lock (see above).
            DispatchQueue.global().async { pending.end(throwing: URLError(.cancelled)) }
        }
    }

    /// `duration` as a dispatch interval: whole milliseconds rounded up, at most 24 days.
    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let milliseconds = (duration / .milliseconds(1)).rounded(.up)
        return .milliseconds(Int(min(max(milliseconds, 0), Double(Int32.max))))
    }

    /// A short reason for a URL loading error.
    private static func reason(_ error: URLError) -> String {
        switch error.code {
        case .cancelled: "cancelled"
        case .cannotConnectToHost: "connection refused"
        case .cannotFindHost, .dnsLookupFailed: "host not found"
        case .networkConnectionLost: "the connection was lost"
        case .notConnectedToInternet: "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            "TLS failed (\(error.localizedDescription))"
        default: error.localizedDescription
        }
    }
}
