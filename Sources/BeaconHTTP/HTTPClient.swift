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
        var urlRequest = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData,
            timeoutInterval: max(
                0.001,
                Double(request.timeout.components.seconds)
                    + Double(request.timeout.components.attoseconds) / 1e18))
        urlRequest.httpMethod = request.method
        for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await load(urlRequest)
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

    /// `urlRequest`'s answer; cancelling the calling task cancels the request.
    ///
    /// Not `URLSession.data(for:)`: on Linux it deadlocks when the task is cancelled while the
    /// answer is being handled (swift-corelibs-foundation #5412) — its cancellation handler, run
    /// under the task's status lock, waits for the session's work queue, which is resuming the
    /// task and waits for that lock. A `beacond run` stopped while a remote alert check was in
    /// flight never exited. Here the handler only hands the cancel to another thread. Fixed
    /// upstream by swift-corelibs-foundation #5417 (in the swift-6.4 snapshots): with a toolchain
    /// that has it, `data(for:)` can come back.
    private func load(_ urlRequest: URLRequest) async throws -> (Data, URLResponse) {
        let pending = PendingRequest()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let response, error == nil {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                }
                pending.start(task)
            }
        } onCancel: {
            DispatchQueue.global().async { pending.cancel() }
        }
    }

    /// A short reason for a URL loading error.
    private static func reason(_ error: URLError) -> String {
        switch error.code {
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

/// The URL session task of one ``HTTPClient`` request, and whether it was cancelled before it
/// started (a cancel that comes first cancels it as it starts).
private final class PendingRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    /// Starts `task`, or cancels it at once when the request was cancelled already.
    func start(_ task: URLSessionDataTask) {
        let cancelled = lock.withLock {
            self.task = task
            return self.cancelled
        }
        task.resume()
        if cancelled { task.cancel() }
    }

    /// Cancels the task (or the one about to start).
    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}
