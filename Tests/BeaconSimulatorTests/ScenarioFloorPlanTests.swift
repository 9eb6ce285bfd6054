import BeaconCore
import BeaconSimulator
import Foundation
import Testing

/// A scenario's `walls:` and `blocks:`: read and checked as a hub file's are, and the bundled
/// `hall-aisles.yaml` walked only where its plan lets people walk.
@Suite("Scenario floor plans")
struct ScenarioFloorPlanTests {
    @Test("the bundled aisle hall loads with its eight blocks, and every walker's route keeps to the aisles")
    func hallAislesKeepsToAisles() throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("hall-aisles.yaml"))
        #expect(scenario.obstacles.count == 8)
        #expect(scenario.walkers.count == 3)
        for walker in scenario.walkers {
            // Every point of every leg, a decimetre apart, lies outside every block.
            for (a, b) in zip(walker.waypoints, walker.waypoints.dropFirst()) {
                let from = SIMD2(a.position.x, a.position.y)
                let to = SIMD2(b.position.x, b.position.y)
                let steps = Int((((to - from) * (to - from)).sum().squareRoot() * 10).rounded(.up))
                for i in 0...steps {
                    let point = from + (to - from) * (Double(i) / Double(max(steps, 1)))
                    #expect(!scenario.obstacles.contains { $0.encloses(point) }, "\(walker.name) at \(point)")
                }
            }
        }
    }

    @Test("a scenario's block on a floor it has not got is refused at its line")
    func blockOnUnknownFloor() throws {
        let yaml = """
            duration: 1m
            floors: [{name: ground, z: 0}]
            rooms: [{name: hall, area: {min: [0, 0], max: [10, 10]}}]
            blocks: [{min: [1, 1], max: [2, 2], floor: attic}]
            gateways: [{name: g, position: [1, 1, 2], room: hall}]
            beacons: [{name: b, ibeacon: {uuid: 7068696C-6F74-7578-6F00-E78F135624CE, major: 1, minor: 1}, position: [2, 2, 1]}]
            """
        #expect {
            try Scenario.parse(yaml: yaml, file: "s.yaml")
        } throws: { error in
            "\(error)".contains("s.yaml:4")
                && "\(error)".contains("floor 'attic' is not one of the site's: its floors are ground")
        }
    }
}
