/// The site's radio model: what positions are solved with.
///
/// A gateway at distance ρ from a beacon of measured power *P* hears it at
/// `P − 10·(n + δ)·log10(ρ) − b + offset`, where *n* is the site's path-loss exponent, δ the
/// gateway's own departure from it (0 unless anchors showed one), *b* the beacon's own offset
/// (solved per fix) and `offset` the gateway's receive offset (a dongle that reads 4 dB low has
/// +4). Tags are taken to be at ``tagHeight``.
public struct SiteRadioModel: Hashable, Sendable, Codable {
    /// The path-loss exponent *n*.
    public var pathLossExponent: Double
    /// The tags' height, metres.
    public var tagHeight: Double
    /// Each gateway's receive offset, dB, added to what it reports (in layout order).
    public var receiveOffsets: [Double]
    /// Each gateway's departure δ from the site's exponent (in layout order; 0 where the data
    /// do not support one).
    public var exponentOffsets: [Double]

    /// Creates a model.
    public init(pathLossExponent: Double, tagHeight: Double, receiveOffsets: [Double], exponentOffsets: [Double]? = nil) {
        self.pathLossExponent = pathLossExponent
        self.tagHeight = tagHeight
        self.receiveOffsets = receiveOffsets
        self.exponentOffsets = exponentOffsets ?? Array(repeating: 0, count: receiveOffsets.count)
    }

    /// The exponent towards gateway `g`: the site's plus the gateway's own departure.
    @inline(__always)
    public func exponent(_ g: Int) -> Double { pathLossExponent + exponentOffsets[g] }
}
