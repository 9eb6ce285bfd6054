/// Why a beacon layout string cannot be used; the message names the term and what to write.
public struct BeaconLayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The layout as written.
    public let layout: String
    /// The offending term (empty when the layout as a whole is wrong).
    public let term: String
    /// What is wrong and what would be right.
    public let reason: String

    /// Creates an error.
    public init(layout: String, term: String, reason: String) {
        self.layout = layout
        self.term = term
        self.reason = reason
    }

    public var description: String {
        term.isEmpty ? "beacon layout '\(layout)': \(reason)" : "beacon layout '\(layout)', term '\(term)': \(reason)"
    }
}
