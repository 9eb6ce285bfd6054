import BeaconTestSupport
import Foundation
import Testing

/// `beacond evaluate-ranging` finds its data relative to where it runs, not where it was built.
@Suite("beacond evaluate-ranging")
struct EvaluateRangingCommandTests {
    @Test("outside a checkout without --data: a clear error, exit 64")
    func noDataHere() async throws {
        let run = try await CommandRun.run(
            TestPaths.beacond, ["evaluate-ranging"], directory: FileManager.default.temporaryDirectory.path)
        #expect(run.status == 64)
        #expect(run.standardError.contains("no Data/rssi here"), "\(run.standardError)")
        #expect(run.standardError.contains("--data"))
    }

    @Test("from the checkout, or anywhere with --data: the tables")
    func withData() async throws {
        let here = try await CommandRun.run(TestPaths.beacond, ["evaluate-ranging"], directory: TestPaths.repositoryRoot)
        #expect(here.status == 0, "\(here.standardError)")
        #expect(here.standardOutput.contains("| filter |"))
        let elsewhere = try await CommandRun.run(
            TestPaths.beacond, ["evaluate-ranging", "--data", TestPaths.repositoryRoot + "/Data/rssi"],
            directory: FileManager.default.temporaryDirectory.path)
        #expect(elsewhere.status == 0, "\(elsewhere.standardError)")
        #expect(elsewhere.standardOutput == here.standardOutput)
    }
}
