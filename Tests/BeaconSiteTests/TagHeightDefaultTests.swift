import BeaconCore
import BeaconSiteReport
import Testing

@testable import BeaconSite

/// The tags' height when a site file gives none (issue 27): a site that names only its gateways'
/// positions should not need to be told where its tags are.
@Suite("SiteFusion: the tags' height by default")
struct TagHeightDefaultTests {
    static func gateway(_ id: String, z: Double, floor: String? = nil) -> SiteGateway {
        SiteGateway(id: id, room: floor ?? "hall", position: Vector3(x: Double(id.count), y: 0, z: z), floor: floor)
    }

    @Test("gateways hanging overhead (every one at 2 m or higher): the tags are worn or carried, at 1.2 m")
    func overhead() {
        #expect(SitePositioner.defaultTagHeight(gatewayHeights: [2.8, 2.8, 2.8, 2.8]) == 1.2)
        #expect(SitePositioner.defaultTagHeight(gatewayHeights: [2.0, 3.5]) == 1.2)
    }

    @Test("gateways at the tags' level (any one below 2 m): their mean height, as before")
    func atTagLevel() {
        // The philotuxo hall: sensors at 1.22 and 2.3 m around a tag at 1.85 m.
        #expect(abs(SitePositioner.defaultTagHeight(gatewayHeights: [1.22, 2.3, 2.3, 1.22]) - 1.76) < 1e-9)
        #expect(SitePositioner.defaultTagHeight(gatewayHeights: [1.99, 3.0]) == 2.495)
        #expect(SitePositioner.defaultTagHeight(gatewayHeights: []) == 0)
    }

    @Test("a fusion built without a tag height uses the rule; a height set by hand wins")
    func fusionModel() throws {
        let layout = try SiteLayout(gateways: ["a", "bb", "ccc"].map { Self.gateway($0, z: 2.8) })
        #expect(try SiteFusion(layout: layout, configuration: SiteFusionConfiguration()).radioModel.tagHeight == 1.2)
        let configured = SiteFusionConfiguration(positioning: PositioningConfiguration(tagHeight: 0.8))
        #expect(try SiteFusion(layout: layout, configuration: configured).radioModel.tagHeight == 0.8)
    }

    @Test("floors: the lowest floor's tags by the rule (or as set), each floor above raised by how much higher its gateways hang")
    func floors() throws {
        let overhead = try SiteLayout(gateways: [
            Self.gateway("a", z: 2.8, floor: "ground"), Self.gateway("bb", z: 2.8, floor: "ground"),
            Self.gateway("ccc", z: 6.8, floor: "first"), Self.gateway("dddd", z: 6.8, floor: "first"),
        ])
        let heights = SitePositioner.floorTagHeights(layout: overhead, configured: nil)
        let ground = try #require(overhead.floors.firstIndex(of: "ground"))
        let first = try #require(overhead.floors.firstIndex(of: "first"))
        #expect(abs(heights[ground] - 1.2) < 1e-9 && abs(heights[first] - 5.2) < 1e-9, "\(heights)")
        let set = SitePositioner.floorTagHeights(layout: overhead, configured: 1.0)
        #expect(abs(set[ground] - 1.0) < 1e-9 && abs(set[first] - 5.0) < 1e-9, "\(set)")
        let low = try SiteLayout(gateways: [
            Self.gateway("a", z: 1.0, floor: "ground"), Self.gateway("bb", z: 1.5, floor: "ground"),
            Self.gateway("ccc", z: 5.0, floor: "first"),
        ])
        let lowHeights = SitePositioner.floorTagHeights(layout: low, configured: nil)
        #expect(abs(lowHeights[try #require(low.floors.firstIndex(of: "ground"))] - 1.25) < 1e-9)
        #expect(abs(lowHeights[try #require(low.floors.firstIndex(of: "first"))] - 5.0) < 1e-9)
    }
}
