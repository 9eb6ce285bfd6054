/// A site replay's input that cannot be used (a recording that cannot be read), and why.
public struct SiteReplayError: Error, CustomStringConvertible {
    /// What is wrong, naming the file.
    public var message: String

    public var description: String { message }
}
