import BeaconCore
import BeaconSiteReport

/// The gateways of a site and the rooms they cover: what the hub needs to know about the
/// building. Gateways are numbered in the order given (the hub's evidence tables use the index).
public struct SiteLayout: Sendable {
    /// The gateways, in configuration order.
    public let gateways: [SiteGateway]
    /// The distinct rooms, in order of first appearance.
    public let rooms: [String]
    /// Each gateway's room as an index into ``rooms`` (-1 for a gateway without a room).
    let roomOfGateway: [Int]
    private let indexByID: [String: Int]
    /// Beacons at known positions: the reference tags given, and, when the site's name is
    /// known, every positioned gateway as the beacon it advertises with `site.advertise: true`
    /// (``SiteGatewayBeacon``). The hub calibrates its radio model on what gateways hear of them.
    public let anchors: [SiteAnchor]
    /// The anchor with each identity, as an index into ``anchors``.
    let anchorIndexByID: [BeaconID: Int]

    /// The most gateways a site may have (a hub's per-beacon tables are sized by it).
    public static let maxGateways = 256

    /// Creates a layout.
    /// - Parameters:
    ///   - gateways: the site's gateways, in the order their evidence is indexed.
    ///   - anchors: reference tags at known positions.
    ///   - site: the site's name; when given, each positioned gateway's advertised identity is an
    ///     anchor too.
    /// - Throws: `SiteConfigurationError` for no gateways, too many, a repeated id, or two
    ///   anchors with one identity.
    public init(gateways: [SiteGateway], anchors: [SiteAnchor] = [], site: String? = nil) throws(SiteConfigurationError) {
        guard !gateways.isEmpty else { throw .noGateways }
        guard gateways.count <= Self.maxGateways else { throw .tooManyGateways(gateways.count, limit: Self.maxGateways) }
        var index: [String: Int] = [:]
        var rooms: [String] = []
        var roomOfGateway: [Int] = []
        for (i, gateway) in gateways.enumerated() {
            guard SiteGateway.isValidID(gateway.id) else { throw .invalidGatewayID(gateway.id) }
            guard index.updateValue(i, forKey: gateway.id) == nil else { throw .duplicateGateway(gateway.id) }
            if let room = gateway.room {
                if let r = rooms.firstIndex(of: room) {
                    roomOfGateway.append(r)
                } else {
                    rooms.append(room)
                    roomOfGateway.append(rooms.count - 1)
                }
            } else {
                roomOfGateway.append(-1)
            }
        }
        var allAnchors = anchors
        if let site {
            for (i, gateway) in gateways.enumerated() {
                guard let position = gateway.position else { continue }
                allAnchors.append(
                    SiteAnchor(
                        id: SiteGatewayBeacon.identity(site: site, gateway: gateway.id), position: position,
                        floor: gateway.floor, gateway: i))
            }
        }
        var anchorIndex: [BeaconID: Int] = [:]
        for (i, anchor) in allAnchors.enumerated() {
            if let other = anchorIndex.updateValue(i, forKey: anchor.id) {
                func name(_ a: SiteAnchor) -> String { a.gateway.map { "gateway \(gateways[$0].id)" } ?? "anchor \(a.id)" }
                throw .invalid("\(name(allAnchors[other])) and \(name(anchor)) advertise the same identity: rename one")
            }
        }
        self.gateways = gateways
        self.rooms = rooms
        self.roomOfGateway = roomOfGateway
        self.indexByID = index
        self.anchors = allAnchors
        self.anchorIndexByID = anchorIndex
    }

    /// The anchor advertising `id`, if it is one.
    public func anchor(_ id: BeaconID) -> SiteAnchor? { anchorIndexByID[id].map { anchors[$0] } }

    /// The index of the gateway with this id, if it is part of the site.
    @inlinable
    public func index(of gatewayID: String) -> Int? { lookup(gatewayID) }

    @usableFromInline
    func lookup(_ id: String) -> Int? { indexByID[id] }
}
