import BeaconCore
import BeaconSiteReport

extension SitePositioner {
    /// Where every gateway hangs at least this high (metres), the receivers are overhead and the
    /// tags are taken to be worn or carried: at ``carriedTagHeight``.
    static let overheadMounting = 2.0
    /// The height of a tag worn on a badge or carried in a hand, metres.
    static let carriedTagHeight = 1.2

    /// The tags' height when none is configured, from the heights of the gateways that hear them:
    /// ``carriedTagHeight`` when every one hangs at ``overheadMounting`` or higher, otherwise their
    /// mean height (0 without any). Taking the receivers' mean when they hang overhead puts the
    /// tags 1–2 m too high, and at a few metres' range that height is most of the distance the
    /// model predicts: on the simulated shop (gateways at 2.8 m, badges at 1.2 m) the median
    /// position error was 2.21 m with the mean and is 1.57 m with this rule, the same as with
    /// the height set by hand.
    static func defaultTagHeight(gatewayHeights heights: [Double]) -> Double {
        guard let lowest = heights.min() else { return 0 }
        return lowest >= overheadMounting ? carriedTagHeight : heights.reduce(0, +) / Double(heights.count)
    }

    /// The tags' height on each of the layout's floors (in order), metres: on the floor whose
    /// gateways hang lowest, ``PositioningConfiguration/tagHeight`` when set and otherwise
    /// ``defaultTagHeight(gatewayHeights:)`` of that floor's gateways; on every other floor, that
    /// height raised by how much higher its gateways hang on average. A site without floors has
    /// none.
    static func floorTagHeights(layout: SiteLayout, configured: Double?) -> [Double] {
        let heights: [[Double]] = layout.floors.indices.map { f in
            layout.gateways.indices.compactMap { g in
                layout.floorOfGateway[g] == f ? layout.gateways[g].position?.z : nil
            }
        }
        let means: [Double?] = heights.map { $0.isEmpty ? nil : $0.reduce(0, +) / Double($0.count) }
        let positioned = means.indices.compactMap { f in means[f].map { (floor: f, mean: $0) } }
        guard let (lowestFloor, lowest) = positioned.min(by: { $0.mean < $1.mean }) else {
            return means.map { _ in configured ?? 0 }
        }
        let base = configured ?? defaultTagHeight(gatewayHeights: heights[lowestFloor])
        return means.map { mean in base + ((mean ?? lowest) - lowest) }
    }
}
