/// A configuration that cannot be a site hub's.
public struct HubConfigurationError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and what to write instead.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
