import BeaconCore

/// Why a sink did not accept an event (the outbox retries it later).
public enum SinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file could not be opened or written.
    case io(path: String, operation: String, errno: Int32)
    /// The webhook answered with a status outside 2xx.
    case httpStatus(url: String, status: Int)
    /// The webhook could not be reached or did not answer in time.
    case http(url: String, reason: String)
    /// A URL in configuration or in a callback destination is not an http(s) URL.
    case invalidURL(String)
    /// The command exited with a non-zero status (or was killed by a signal).
    case commandFailed(command: String, status: Int32)
    /// The command did not finish within its timeout and was killed.
    case commandTimedOut(command: String, timeout: Duration)
    /// The command could not be started.
    case commandNotStarted(command: String, reason: String)
    /// A test sink was told to refuse.
    case refused(String)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .io(let path, let operation, let code):
            "cannot \(operation) \(path): \(String(cString: strerror(code))) (errno \(code)); check the path and its permissions"
        case .httpStatus(let url, let status):
            "webhook \(url) answered HTTP \(status); it is retried until it answers 2xx"
        case .http(let url, let reason):
            "webhook \(url) failed: \(reason); it is retried with backoff"
        case .invalidURL(let url):
            "'\(url)' is not an http:// or https:// URL; write the full URL"
        case .commandFailed(let command, let status):
            "command '\(command)' exited with status \(status); it is retried with backoff"
        case .commandTimedOut(let command, let timeout):
            "command '\(command)' did not finish within \(timeout.approximate) and was killed; raise its timeout or make it faster"
        case .commandNotStarted(let command, let reason):
            "command '\(command)' could not be started: \(reason)"
        case .refused(let reason):
            "refused: \(reason)"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
