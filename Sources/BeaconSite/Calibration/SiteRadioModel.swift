/// The site's radio model: what positions are solved with.
///
/// A gateway at distance ρ from a beacon of measured power *P* hears it at
/// `P − 10·n·log10(ρ) − b + offset`, where *n* is the path-loss exponent, *b* the beacon's own
/// offset (solved per fix) and `offset` the gateway's receive offset (a dongle that reads 4 dB
/// low has +4). Tags are taken to be at ``tagHeight``.
public struct SiteRadioModel: Hashable, Sendable, Codable {
    /// The path-loss exponent *n*.
    public var pathLossExponent: Double
    /// The tags' height, metres.
    public var tagHeight: Double
    /// Each gateway's receive offset, dB, added to what it reports (in layout order).
    public var receiveOffsets: [Double]

    /// Creates a model.
    public init(pathLossExponent: Double, tagHeight: Double, receiveOffsets: [Double]) {
        self.pathLossExponent = pathLossExponent
        self.tagHeight = tagHeight
        self.receiveOffsets = receiveOffsets
    }
}
