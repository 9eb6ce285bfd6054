import BeaconCore
import BeaconSiteReport

extension SiteFusion {
    /// The tags' height on each of the layout's floors (in order), metres: with
    /// ``PositioningConfiguration/tagHeight`` set, that height on the floor whose gateways hang
    /// lowest, raised on every other floor by how much higher its gateways hang on average;
    /// without it, the mean height of the floor's gateways. A site without floors has none.
    static func floorTagHeights(layout: SiteLayout, configured: Double?) -> [Double] {
        let means: [Double?] = layout.floors.indices.map { f in
            let heights = layout.gateways.indices.compactMap { g in
                layout.floorOfGateway[g] == f ? layout.gateways[g].position?.z : nil
            }
            return heights.isEmpty ? nil : heights.reduce(0, +) / Double(heights.count)
        }
        let lowest = means.compactMap { $0 }.min() ?? 0
        return means.map { mean in
            guard let configured else { return mean ?? 0 }
            return configured + ((mean ?? lowest) - lowest)
        }
    }

    /// The floor positions of beacon `b` are solved on (index into the layout's floors), -1 for
    /// none (a site without floors, or a beacon not placed on one yet: every gateway counts).
    @inline(__always)
    func positionFloor(of b: Int) -> Int {
        Int(beacons[b].lastFloor)
    }

    /// Whether gateway `g` takes part in beacon `b`'s position: it is on the beacon's floor, or
    /// the beacon (or the gateway) has none.
    @inline(__always)
    func isOnPositionFloor(gateway g: Int, beacon b: Int) -> Bool {
        let floor = positionFloor(of: b)
        return floor < 0 || layout.floorOfGateway[g] < 0 || layout.floorOfGateway[g] == floor
    }

    /// The tags' height for beacon `b`'s position: its floor's, else the site's.
    @inline(__always)
    func positionHeight(of b: Int) -> Double {
        let floor = positionFloor(of: b)
        return floor >= 0 && floor < floorTagHeights.count ? floorTagHeights[floor] : tagHeight
    }
}
