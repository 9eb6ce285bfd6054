/// Why the HTTP control endpoint cannot start.
public struct ControlServerError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and what to change, without the `http:` prefix.
    public var message: String

    /// Creates the error.
    public init(_ message: String) {
        self.message = message
    }

    /// What is wrong and what to do, under the configuration key it concerns.
    public var description: String { "http: \(message)" }
}
