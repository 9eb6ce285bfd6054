/// Why a scenario (or alerts, truth) file could not be loaded. The description reads
/// `file:line: what is wrong; what is expected`.
public enum ScenarioError: Error, CustomStringConvertible, Equatable {
    /// The file could not be read.
    case unreadable(file: String, reason: String)
    /// A file (the ground truth) could not be created or written.
    case unwritable(file: String, reason: String)
    /// The text is not valid YAML.
    case syntax(file: String, line: Int, problem: String)
    /// A mapping has a key the format does not know.
    case unknownKey(file: String, line: Int, key: String, context: String, expected: [String])
    /// A required key is absent.
    case missingField(file: String, line: Int, key: String, context: String)
    /// A value has the wrong type or form.
    case invalidValue(file: String, line: Int, key: String, found: String, expected: String)

    /// The line the error refers to (1-based; 0 when there is none).
    public var line: Int {
        switch self {
        case .unreadable, .unwritable: 0
        case .syntax(_, let line, _), .unknownKey(_, let line, _, _, _), .missingField(_, let line, _, _),
            .invalidValue(_, let line, _, _, _):
            line
        }
    }

    public var description: String {
        switch self {
        case let .unreadable(file, reason):
            "\(file): cannot read the file (\(reason)); check the path and permissions"
        case let .unwritable(file, reason):
            "\(file): cannot write the file (\(reason)); check the path, permissions and free space"
        case let .syntax(file, line, problem):
            "\(file):\(line): invalid YAML: \(problem)"
        case let .unknownKey(file, line, key, context, expected):
            "\(file):\(line): unknown key '\(key)' in \(context); expected one of: \(expected.joined(separator: ", "))"
        case let .missingField(file, line, key, context):
            "\(file):\(line): missing '\(key)' in \(context); add it"
        case let .invalidValue(file, line, key, found, expected):
            "\(file):\(line): '\(key)' is \(found); expected \(expected)"
        }
    }
}
