import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconSite
import BeaconSiteReport
import BeaconStrategies
import BeaconStrategyKit
import Testing

private typealias F = PipelineFixtures

/// Each pipeline takes the input of its front end: packets (a gateway) or gateways' reports (a
/// site hub). The other kind is refused with a clear error, and the pipeline goes on.
@Suite("AlertPipeline inputs")
struct AlertPipelineInputTests {
    @Test("gateways' reports sent to a gateway's pipeline are refused, and it goes on ranging packets")
    func reportsToGateway() throws {
        let pipeline = try AlertPipeline(alerts: [F.enterAlert()], registry: .builtIn())
        let error = #expect(throws: PipelineError.self) {
            try pipeline.ingest(reports: SitePipelineTests.reports(second: 1, x: 3, y: 2)) { _ in }
        }
        guard case .input(let message)? = error else {
            Issue.record("expected PipelineError.input, got \(String(describing: error))")
            return
        }
        #expect(message.contains("site hub"), "\(message)")
        #expect("\(error!)".hasPrefix("wrong input: gateways' reports"), "\(error!)")
        #expect(pipeline.statistics.site == nil)
        #expect(pipeline.latestTime == nil)

        var created = 0
        try pipeline.ingest(F.batch([(0.2, 1), (1.2, 1)])) { if $0.event.kind == .created { created += 1 } }
        #expect(pipeline.statistics.packets == 2)
        #expect(created == 1)
    }

    @Test("packets and sightings sent to a site hub's pipeline are refused, and it goes on fusing reports")
    func packetsToHub() throws {
        let pipeline = try SitePipelineTests.pipeline([])
        let batchError = #expect(throws: PipelineError.self) {
            try pipeline.ingest(F.batch([(0.2, 1), (1.2, 1)])) { _ in }
        }
        guard case .input(let message)? = batchError else {
            Issue.record("expected PipelineError.input, got \(String(describing: batchError))")
            return
        }
        #expect(message.contains("site hub"), "\(message)")
        let sighting = BeaconSighting(
            timestamp: F.t0, id: SitePipelineTests.tag, address: BluetoothAddress(rawValue: 0xA1), rssi: -60,
            measuredPower: -59)
        let sightingError = #expect(throws: PipelineError.self) { try pipeline.ingest(sighting) { _ in } }
        #expect(sightingError.map { "\($0)" } == batchError.map { "\($0)" })
        #expect(pipeline.statistics.packets == 0)
        #expect(pipeline.latestTime == nil)
        #expect(pipeline.trackedBeacons == 0)

        try pipeline.ingest(reports: SitePipelineTests.reports(second: 1, x: 3, y: 2)) { _ in }
        #expect(pipeline.trackedBeacons == 1)
        #expect(pipeline.statistics.site?.reports == 4)
    }
}
