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
            (data, response) = try await session.data(for: urlRequest)
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
