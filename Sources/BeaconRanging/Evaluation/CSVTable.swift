/// A comma-separated table with a header row, read from text. Plain CSV only (no quoting),
/// which is what the evaluation data sets use.
public struct CSVTable: Sendable {
    /// Column names from the first line.
    public let header: [String]
    /// The data rows, split on commas.
    public let rows: [[Substring]]

    /// Parses `text`; blank lines are skipped.
    public init(text: String) {
        var lines = text.split(whereSeparator: \.isNewline).makeIterator()
        header = lines.next().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
        var rows: [[Substring]] = []
        while let line = lines.next() {
            rows.append(line.split(separator: ",", omittingEmptySubsequences: false))
        }
        self.rows = rows
    }

    /// The index of column `name`, or a typed error naming the file's columns.
    public func column(_ name: String, in file: String) throws(RangingEvaluationError) -> Int {
        guard let index = header.firstIndex(of: name) else {
            throw .missingColumn(file: file, column: name, columns: header)
        }
        return index
    }
}
