/// A configuration (or scenario) file that cannot be used, with where and why.
///
/// The description reads `file:line:column: what is wrong` followed by what is expected, so an
/// editor can jump to the place.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file, or `<string>` for text given directly.
    public var file: String
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column, when known.
    public var column: Int?
    /// What is wrong and what would be right.
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let line, let column, line > 0 { place += ":\(column)" }
        return "\(place): \(message)"
    }
}
