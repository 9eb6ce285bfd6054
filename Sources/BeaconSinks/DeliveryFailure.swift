/// Whether a failed delivery can succeed by being tried again.
public enum DeliveryFailure {
    /// A failure no retry can cure: a URL that is not an http(s) URL, or an HTTP answer in 4xx
    /// other than 408 (request timeout) and 429 (too many requests). Such an event goes to the
    /// dead letters at once instead of blocking its sink. Everything else (5xx, no answer, a
    /// broker or command that failed) is retried.
    public static func isPermanent(_ error: any Error) -> Bool {
        switch error as? SinkError {
        case .invalidURL: true
        case .httpStatus(_, let status): (400..<500).contains(status) && status != 408 && status != 429
        default: false
        }
    }
}
