/// Why an HTTP exchange did not produce a response.
public enum HTTPClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL is not an absolute http(s) URL.
    case invalidURL(String)
    /// No answer within the request's timeout.
    case timedOut(url: String, timeout: Duration)
    /// The server could not be reached, or the exchange failed (the system's reason).
    case failed(url: String, reason: String)
    /// The body is larger than the caller accepts.
    case bodyTooLarge(url: String, limit: Int)

    public var description: String {
        switch self {
        case .invalidURL(let url): "'\(url)' is not an http:// or https:// URL"
        case .timedOut(let url, let timeout): "\(url): no answer within \(timeout)"
        case .failed(let url, let reason): "\(url): \(reason)"
        case .bodyTooLarge(let url, let limit): "\(url): the answer is larger than \(limit) bytes"
        }
    }
}
