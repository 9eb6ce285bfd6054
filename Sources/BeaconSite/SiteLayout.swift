import BeaconCore
import BeaconSiteReport

/// The gateways of a site and the rooms they cover: what the hub needs to know about the
/// building. Gateways are numbered in the order given (the hub's evidence tables use the index).
public struct SiteLayout: Sendable {
    /// The gateways, in configuration order.
    public let gateways: [SiteGateway]
    /// The distinct rooms: the gateways', in order of first appearance, then those outlined with
    /// no gateway in them (``draw(obstacles:roomOutlines:)``).
    public private(set) var rooms: [String]
    /// How many of ``rooms`` the gateways name (the first ones).
    let gatewayRoomCount: Int
    /// The rooms only outlined, that no gateway is in: only the grid filter places tags in them.
    public var roomsWithoutGateway: ArraySlice<String> { rooms[gatewayRoomCount...] }
    /// Each gateway's room as an index into ``rooms`` (-1 for a gateway without a room).
    let roomOfGateway: [Int]
    /// The distinct floors the gateways name, in order of first appearance (empty for a site on
    /// one floor).
    public let floors: [String]
    /// Each gateway's floor as an index into ``floors``: its own, else its room's (-1: none).
    let floorOfGateway: [Int]
    /// Each room's floor as an index into ``floors`` (the floor its gateways name, or the site's
    /// one floor for a room without a gateway; -1: none).
    private(set) var floorOfRoom: [Int]
    /// The gateways of each room (none for a room only outlined).
    private(set) var gatewaysOfRoom: [[Int]]
    private let indexByID: [String: Int]
    /// Beacons at known positions: the reference tags given, and, when the site's name is
    /// known, every positioned gateway as the beacon it advertises with `site.advertise: true`
    /// (`SiteGatewayBeacon`). The hub calibrates its radio model on what gateways hear of them.
    public let anchors: [SiteAnchor]
    /// The anchor with each identity, as an index into ``anchors``.
    let anchorIndexByID: [BeaconID: Int]
    /// The walls and blocks people cannot pass or stand in (the grid filter's floor plan).
    public private(set) var obstacles: [SiteObstacle] = []
    /// The rooms' outlines, where the site draws them (each of a room in ``rooms``, at most one
    /// per room): the grid filter decides a tracked beacon's room from them.
    public private(set) var roomOutlines: [SiteRoomOutline] = []

    /// The most gateways a site may have (a hub's per-beacon tables are sized by it).
    public static let maxGateways = 256

    /// Creates a layout.
    /// - Parameters:
    ///   - gateways: the site's gateways, in the order their evidence is indexed.
    ///   - anchors: reference tags at known positions.
    ///   - site: the site's name; when given, each positioned gateway's advertised identity is an
    ///     anchor too.
    ///   - obstacles: walls and blocks, on the gateways' floors.
    ///   - roomOutlines: outlines of the gateways' rooms.
    /// - Throws: `SiteConfigurationError` for no gateways, too many, a repeated id, a room named
    ///   `unknown`, a room whose gateways name different floors, two anchors with one identity, or
    ///   a floor plan ``draw(obstacles:roomOutlines:)`` refuses.
    public init(
        gateways: [SiteGateway], anchors: [SiteAnchor] = [], site: String? = nil, obstacles: [SiteObstacle] = [],
        roomOutlines: [SiteRoomOutline] = []
    ) throws(SiteConfigurationError) {
        guard !gateways.isEmpty else { throw .noGateways }
        guard gateways.count <= Self.maxGateways else { throw .tooManyGateways(gateways.count, limit: Self.maxGateways) }
        var index: [String: Int] = [:]
        var rooms: [String] = []
        var roomOfGateway: [Int] = []
        for (i, gateway) in gateways.enumerated() {
            guard SiteGateway.isValidID(gateway.id) else { throw .invalidGatewayID(gateway.id) }
            guard index.updateValue(i, forKey: gateway.id) == nil else { throw .duplicateGateway(gateway.id) }
            if let room = gateway.room {
                guard room != Self.unknownRoom else {
                    throw .invalid(
                        "gateway \(gateway.id): '\(room)' cannot name a room: it is what the hub says when it cannot tell")
                }
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
        var floors: [String] = []
        var floorOfRoom = Array(repeating: -1, count: rooms.count)
        var floorOfGateway: [Int] = []
        var gatewaysOfRoom = Array(repeating: [Int](), count: rooms.count)
        for (i, gateway) in gateways.enumerated() {
            var f = -1
            if let name = gateway.floor {
                if let existing = floors.firstIndex(of: name) {
                    f = existing
                } else {
                    floors.append(name)
                    f = floors.count - 1
                }
            }
            floorOfGateway.append(f)
            let r = roomOfGateway[i]
            guard r >= 0 else { continue }
            gatewaysOfRoom[r].append(i)
            guard f >= 0 else { continue }
            if floorOfRoom[r] >= 0, floorOfRoom[r] != f {
                throw .invalid(
                    "gateway \(gateway.id) is on floor '\(floors[f])' but room '\(rooms[r])' has a gateway on floor '\(floors[floorOfRoom[r]])': a room is on one floor"
                )
            }
            floorOfRoom[r] = f
        }
        for i in gateways.indices where floorOfGateway[i] < 0 && roomOfGateway[i] >= 0 {
            floorOfGateway[i] = floorOfRoom[roomOfGateway[i]]
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
        gatewayRoomCount = rooms.count
        self.roomOfGateway = roomOfGateway
        self.floors = floors
        self.floorOfGateway = floorOfGateway
        self.floorOfRoom = floorOfRoom
        self.gatewaysOfRoom = gatewaysOfRoom
        self.indexByID = index
        self.anchors = allAnchors
        self.anchorIndexByID = anchorIndex
        try draw(obstacles: obstacles, roomOutlines: roomOutlines)
    }

    /// Draws the site's floor plan, in place of any drawn before: `obstacles` on the gateways'
    /// floors, `roomOutlines` of the gateways' rooms and of rooms no gateway is in (added to
    /// ``rooms``, on the site's one floor).
    /// - Throws: `SiteConfigurationError` for an obstacle with too few points, a coordinate that
    ///   is not a number, or a floor no gateway names, an outline of one room twice, or of a room
    ///   no gateway is in on a site of several floors (the grid filter, which alone can place a
    ///   tag there, does not tell floors apart).
    public mutating func draw(obstacles: [SiteObstacle], roomOutlines: [SiteRoomOutline]) throws(SiteConfigurationError) {
        for (i, obstacle) in obstacles.enumerated() {
            try Self.check(obstacle, number: i + 1, floors: floors)
        }
        rooms.removeSubrange(gatewayRoomCount...)
        floorOfRoom.removeSubrange(gatewayRoomCount...)
        gatewaysOfRoom.removeSubrange(gatewayRoomCount...)
        var outlined: Set<String> = []
        for outline in roomOutlines {
            guard outlined.insert(outline.room).inserted else {
                throw .invalid("room '\(outline.room)' is outlined twice: give each room one outline")
            }
            guard outline.corners.count >= 3, outline.corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
                throw .invalid("room '\(outline.room)': an outline needs at least 3 corners, each a number")
            }
            guard !rooms.contains(outline.room) else { continue }
            if let refusal = SiteRoomOutline.refusal(roomWithoutGateway: outline.room, floorCount: floors.count) {
                throw .invalid(refusal)
            }
            rooms.append(outline.room)
            floorOfRoom.append(floors.isEmpty ? -1 : 0)
            gatewaysOfRoom.append([])
        }
        // A walled room's outline is walls, on its room's floor, but where its doors open it.
        let roomWalls = roomOutlines.flatMap { outline in
            outline.walls.map { SiteObstacle(.wall($0), floor: floor(ofRoom: outline.room)) }
        }
        self.obstacles = obstacles + roomWalls
        self.roomOutlines = roomOutlines
    }

    private static func check(_ obstacle: SiteObstacle, number: Int, floors: [String]) throws(SiteConfigurationError) {
        let (kind, least) =
            switch obstacle.shape {
            case .wall: ("wall", 2)
            case .block: ("block", 3)
            }
        guard obstacle.points.count >= least else {
            throw .invalid("\(kind) \(number) has \(obstacle.points.count) points: a \(kind) needs at least \(least)")
        }
        guard obstacle.points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw .invalid("\(kind) \(number) has a coordinate that is not a number")
        }
        if let floor = obstacle.floor, !floors.contains(floor) {
            let known = floors.isEmpty ? "no gateway names a floor" : "the gateways' floors are \(floors.joined(separator: ", "))"
            throw .invalid("\(kind) \(number) is on floor '\(floor)', but \(known)")
        }
    }

    /// The index into ``floors`` of `name` (-1: `nil`, every floor).
    func floorIndex(_ name: String?) -> Int { name.flatMap { floors.firstIndex(of: $0) } ?? -1 }

    /// What a hub reports as the room of a beacon it cannot place (no room may have this name).
    public static let unknownRoom = SiteRoomOutline.unknownRoom

    /// The floor `room` is on (the floor its gateways name), if it is one of the site's rooms and
    /// its gateways name one.
    public func floor(ofRoom room: String) -> String? {
        guard let r = rooms.firstIndex(of: room), floorOfRoom[r] >= 0 else { return nil }
        return floors[floorOfRoom[r]]
    }

    /// The floor of the gateway at `index` (its own, else its room's), if any.
    public func floor(ofGateway index: Int) -> String? {
        floorOfGateway[index] >= 0 ? floors[floorOfGateway[index]] : nil
    }

    /// The anchor advertising `id`, if it is one.
    public func anchor(_ id: BeaconID) -> SiteAnchor? { anchorIndexByID[id].map { anchors[$0] } }

    /// The index of the gateway with this id, if it is part of the site.
    @inlinable
    public func index(of gatewayID: String) -> Int? { lookup(gatewayID) }

    @usableFromInline
    func lookup(_ id: String) -> Int? { indexByID[id] }
}
