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

    /// The most gateways a site may have (a hub's per-beacon tables are sized by it).
    public static let maxGateways = 256

    /// Creates a layout.
    /// - Throws: `SiteConfigurationError` for no gateways, too many, or a repeated id.
    public init(gateways: [SiteGateway]) throws(SiteConfigurationError) {
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
        self.gateways = gateways
        self.rooms = rooms
        self.roomOfGateway = roomOfGateway
        self.indexByID = index
    }

    /// The index of the gateway with this id, if it is part of the site.
    @inlinable
    public func index(of gatewayID: String) -> Int? { lookup(gatewayID) }

    @usableFromInline
    func lookup(_ id: String) -> Int? { indexByID[id] }
}
