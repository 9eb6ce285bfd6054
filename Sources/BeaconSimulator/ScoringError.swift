/// Why a truth or alerts file could not be read for scoring.
public enum ScoringError: Error, CustomStringConvertible, Equatable {
    /// The file could not be opened.
    case unreadable(file: String)
    /// A line is not a JSON object of the expected shape.
    case badLine(file: String, line: Int, problem: String)
    /// Visits were asked to be recomputed but the truth file has no distance lines.
    case noDistances(file: String)

    public var description: String {
        switch self {
        case .unreadable(let file):
            "\(file): cannot read the file; check the path"
        case let .badLine(file, line, problem):
            "\(file):\(line): \(problem)"
        case .noDistances(let file):
            "\(file): no distance lines to recompute visits from; write the truth with distances, or drop --radius/--min-duration"
        }
    }
}
