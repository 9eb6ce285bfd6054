import BeaconCore

extension SiteModelFit {
    /// The side of the squares fixes are counted in, metres: about the distance over which a
    /// place's shadowing stays alike.
    static let placeSize = 3.0

    /// How many squares of ``placeSize`` the moving fixes' places must cover for them to be
    /// fitted: twelve, a walk of about 40 m.
    static let minimumPlaces = 12

    /// The square of ``placeSize`` that (`x`, `y`) falls in, as one key.
    static func square(_ x: Double, _ y: Double) -> Int64 {
        Int64((x / placeSize).rounded(.down)) &* 1_000_003 &+ Int64((y / placeSize).rounded(.down))
    }

    /// The squares the moving fixes' places (``CalibrationWindow/Fix/place``) fall in.
    func distinctPlaces(_ items: [Item]) -> Int {
        var squares = Set<Int64>()
        for item in items {
            guard let p = item.ring.fix(item.index).header.place else { continue }
            squares.insert(Self.square(Double(p.x), Double(p.y)))
        }
        return squares.count
    }

    /// Weighs each moving fix by 1 / the moving fixes whose places (where the hub had placed the
    /// beacon, ``CalibrationWindow/Fix/place``; else where this round solved the fix) fall in its
    /// square of ``placeSize``: a tag parked for half an hour gives the window hundreds of fixes
    /// of one place, whose shadowing to each gateway the fit cannot tell from the gateways'
    /// receive offsets, and unweighted they outvote the offsets' prior (on the hall-session
    /// scenario the offsets ran to their bounds). Weighed, one place counts as one fix; anchors
    /// keep weight 1.
    mutating func spreadWeights(_ items: [Item]) {
        func square(_ k: Int, _ item: Item) -> Int64? {
            let header = item.ring.fix(item.index).header
            guard header.known == nil else { return nil }
            if let p = header.place { return Self.square(Double(p.x), Double(p.y)) }
            return positions[k].map { Self.square($0.x, $0.y) }
        }
        fixesByPlace.removeAll(keepingCapacity: true)
        placeWeights.removeAll(keepingCapacity: true)
        for (k, item) in items.enumerated() {
            if let key = square(k, item) { fixesByPlace[key, default: 0] += 1 }
        }
        for (k, item) in items.enumerated() {
            placeWeights.append(square(k, item).map { 1 / Double(fixesByPlace[$0] ?? 1) } ?? 1)
        }
    }
}
