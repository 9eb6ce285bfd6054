import BeaconCore
import BeaconDaemonConfiguration
import BeaconDevices
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconSite
import BeaconStrategies
import BeaconTestSupport
import Foundation
import Testing

/// The bundled flat (three rooms, a gateway in each): Ada carries a phone and a watch whose private
/// addresses change every 5 and 15 minutes, and the hub places her as a person. Her room is right
/// ≥ 95 % of the time once she arrived, she is never lost at an address change, and the neighbour's
/// phone behind the wall is never ranged.
@Suite("The flat: a person through address changes")
struct FlatScenarioTests {
    @Test("Ada's room is right ≥ 95 % of her stays after her arrival, never lost at a rotation; the neighbour never ranged")
    func personThroughRotations() throws {
        let scenario = try Scenario.load(path: TestPaths.scenario("flat"))
        let configuration = try GatewayConfiguration.load(
            path: TestPaths.repositoryRoot + "/Simulator/Scenarios/flat.alerts.yaml", scenarioPhoneKeys: scenario.phoneKeys)
        let site = try SiteSimulation(
            scenario: scenario, fusion: configuration.siteFusion ?? SiteFusionConfiguration(),
            alerts: try configuration.pipelineAlerts(), registry: .builtIn(), beacons: configuration.beacons,
            people: configuration.people, devices: configuration.devices)
        var places: [(Timestamp, PeoplePlaces.Place)] = []
        var ranged: Set<BeaconID> = []
        site.hub.cycleObserver = { [unowned hub = site.hub] update in
            for beacon in update.beacons { ranged.insert(beacon.id) }
            if let ada = hub.peoplePlaces.first { places.append((update.time, ada)) }
        }
        _ = try site.run(emit: { _ in })
        #expect(ranged == [BeaconID.device(named: "ada-phone")!, BeaconID.device(named: "ada-watch")!], "\(ranged)")

        // Where she truly was: her phone's stays (she carries both).
        let truth = SiteTruth(scenario: scenario)
        let phone = try #require(scenario.beacons.firstIndex { $0.name == "ada-phone" })
        let stays = truth.stays().filter { $0.beaconIndex == phone }
        #expect(stays.count >= 8)
        let arrived = try #require(places.first { $0.1.present }?.0)
        // Corroboration holds her back until a device's second address: at most one rotation (5 min).
        #expect(arrived - scenario.start <= .seconds(5 * 60 + 10), "\(arrived)")
        var right = 0
        var counted = 0
        var lost = 0
        for (time, place) in places where time >= arrived {
            if !place.present { lost += 1 }
            // A stay's room, away from a room change by 5 s (the hub's dwell decides the change).
            guard let stay = stays.first(where: { $0.from + .seconds(5) <= time && time < $0.to }) else { continue }
            counted += 1
            if place.room == stay.room { right += 1 }
        }
        let share = Double(right) / Double(max(1, counted))
        print(
            "flat: Ada's room right \(right) of \(counted) cycles (\(share)), lost \(lost) cycles, arrived \(arrived - scenario.start)"
        )
        #expect(share >= 0.95, "\(right) of \(counted)")
        #expect(lost == 0)
    }
}
