import Testing

@testable import BeaconRanging

@Suite("CSVTable")
struct CSVTableTests {
    @Test("CSV header, rows and a typed error for a missing column")
    func csv() {
        let table = CSVTable(text: "a,b\n1,2\n\n3,\n")
        #expect(table.header == ["a", "b"])
        #expect(table.rows == [["1", "2"], ["3", ""]])
        #expect(throws: RangingEvaluationError.missingColumn(file: "f.csv", column: "c", columns: ["a", "b"])) {
            try table.column("c", in: "f.csv")
        }
    }
}
