import BeaconCore

/// A simulated site and what happens in it: gateways, beacons, people walking, the radio model,
/// when it starts, how long it lasts and the seed of every random draw.
///
/// Load one from YAML with ``load(path:)`` or ``parse(yaml:file:)`` (the format is documented in
/// `Docs/Simulator.md`), or build it in code. Group entries (`count:` in YAML) are already
/// expanded here: every beacon and walker is listed individually.
public struct Scenario: Sendable {
    /// A short name for logs and the truth file.
    public var name: String
    /// Virtual time at which the simulation starts.
    public var start: Timestamp
    /// How long the simulation runs (virtual time).
    public var duration: Duration
    /// The seed of every random draw (advertising phases, advDelay, shadowing, losses).
    public var seed: UInt64
    /// The radio propagation and reception model.
    public var radio: RadioModel
    /// The receivers.
    public var gateways: [GatewaySpec]
    /// The advertisers.
    public var beacons: [BeaconSpec]
    /// People (or forklifts) that carry beacons along waypoints.
    public var walkers: [Walker]
    /// The site's rooms, when it has some (a site scenario: every gateway's room, and the truth
    /// of which room each beacon is in).
    public var rooms: [ScenarioRoom]
    /// The building's floors, lowest first (empty: one floor).
    public var floors: [ScenarioFloor]
    /// The site's walls and blocks (`walls:`, `blocks:`): the plan a simulated site's hub is
    /// given. The radio does not see them; walkers keep to them by their waypoints.
    public var obstacles: [SiteObstacle] = []

    /// Creates a scenario from its parts.
    public init(
        name: String, start: Timestamp, duration: Duration, seed: UInt64, radio: RadioModel,
        gateways: [GatewaySpec], beacons: [BeaconSpec], walkers: [Walker], rooms: [ScenarioRoom] = [],
        floors: [ScenarioFloor] = []
    ) {
        self.name = name
        self.start = start
        self.duration = duration
        self.seed = seed
        self.radio = radio
        self.gateways = gateways
        self.beacons = beacons
        self.walkers = walkers
        self.rooms = rooms
        self.floors = floors.sorted { $0.elevation < $1.elevation }
    }

    /// Virtual time at which the simulation ends.
    public var end: Timestamp { start + duration }

    /// Whether the scenario describes a site with rooms: `beacond simulate` then runs every
    /// gateway and a hub.
    public var isSite: Bool { !rooms.isEmpty }

    /// The room `point` is in (the first listed on its floor that contains it), or `nil` outside
    /// every room.
    public func room(at point: Vector3) -> String? {
        let floor = floorIndex(at: point)
        return rooms.first { $0.contains(point) && (floor < 0 || $0.floor == floors[floor].name) }?.name
    }

    /// The index in ``floors`` of the floor `point` is on, -1 without floors.
    @inlinable
    public func floorIndex(at point: Vector3) -> Int {
        guard !floors.isEmpty else { return -1 }
        var index = 0
        for (i, floor) in floors.enumerated() where point.z >= floor.elevation { index = i }
        return index
    }

    /// The floor `point` is on, `nil` without floors.
    public func floor(at point: Vector3) -> String? {
        let index = floorIndex(at: point)
        return index >= 0 ? floors[index].name : nil
    }

    /// Where `beacon` is at `time`, or `nil` when it is not on site (its walker has not arrived
    /// yet or has left).
    @inlinable
    public func position(of beacon: BeaconSpec, at time: Timestamp) -> Vector3? {
        switch beacon.placement {
        case .fixed(let point):
            return point
        case .carried(let walkerIndex):
            return walkers[walkerIndex].position(atOffset: time - start)
        }
    }
}

extension Scenario {
    /// The keys of the scenario's phones that have one (`phone: {irk: …}`), by name, most
    /// significant byte first: what `devices:` entries with `irk: scenario` enroll.
    public var phoneKeys: [String: [UInt8]] {
        var keys: [String: [UInt8]] = [:]
        for beacon in beacons {
            if case .phone(let name, let irk?, _) = beacon.identity { keys[name] = irk }
        }
        return keys
    }
}
