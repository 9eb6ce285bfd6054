/// Why the ranging evaluation could not read its data.
public enum RangingEvaluationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A data file could not be opened or read.
    case unreadable(path: String)
    /// A column the evaluation needs is absent.
    case missingColumn(file: String, column: String, columns: [String])
    /// A value could not be parsed.
    case badValue(file: String, row: Int, column: String, text: String)

    public var description: String {
        switch self {
        case .unreadable(let path):
            "cannot read \(path): pass --data with the directory holding the RSSI CSV files (the project's Data/rssi)"
        case .missingColumn(let file, let column, let columns):
            "\(file) has no column '\(column)' (columns: \(columns.joined(separator: ", "))): use the files listed in Data/rssi/PROVENANCE.md"
        case .badValue(let file, let row, let column, let text):
            "\(file) row \(row), column \(column): cannot parse '\(text)'"
        }
    }
}
