import BeaconCore

/// What really happened on a simulated site: the rooms each beacon stayed in and its position
/// over time, from the scenario's rooms and walkers alone (independent of the radio and seed).
///
/// `beacond simulate --truth` adds these to the truth file as `stay` and `position` lines,
/// which `beacond score --presence` reads (see `Docs/Simulator.md`).
public struct SiteTruth: Sendable {
    /// A stretch of time one beacon spent in one room.
    public struct Stay: Hashable, Sendable {
        /// Index into ``Scenario/beacons``.
        public var beaconIndex: Int
        /// The room's name.
        public var room: String
        /// When the beacon entered the room.
        public var from: Timestamp
        /// When it left (or the scenario ended).
        public var to: Timestamp
        /// The room's floor, on a scenario with floors.
        public var floor: String? = nil
    }

    /// The scenario (with rooms).
    public let scenario: Scenario
    /// Spacing of the position samples, and the resolution of room changes.
    public let sampleInterval: Duration
    /// The shortest time in a room that counts as a stay: walking through a room is not staying.
    public let minimumStay: Duration

    /// Creates the site truth of `scenario`.
    public init(scenario: Scenario, sampleInterval: Duration = .seconds(1), minimumStay: Duration = .seconds(10)) {
        precondition(sampleInterval > .zero, "the sample interval must be positive")
        self.scenario = scenario
        self.sampleInterval = sampleInterval
        self.minimumStay = minimumStay
    }

    /// Every stay of at least ``minimumStay``, by beacon then time. Room changes are found to a
    /// tenth of ``sampleInterval``.
    public func stays() -> [Stay] {
        let step = sampleInterval / 10
        var stays: [Stay] = []
        for (index, beacon) in scenario.beacons.enumerated() where beacon.gateway == nil {
            var current: (room: String, from: Timestamp)?
            var time = scenario.start
            func close(at end: Timestamp) {
                if let open = current, end - open.from >= minimumStay {
                    let floor = scenario.rooms.first { $0.name == open.room }?.floor
                    stays.append(Stay(beaconIndex: index, room: open.room, from: open.from, to: end, floor: floor))
                }
                current = nil
            }
            while time <= scenario.end {
                let room = scenario.position(of: beacon, at: time).flatMap(scenario.room(at:))
                if room != current?.room {
                    close(at: time)
                    if let room { current = (room, time) }
                }
                time = time + step
            }
            close(at: scenario.end)
        }
        return stays
    }

    /// Calls `body` with every beacon's position at every sample while it is on site, beacon by
    /// beacon, in time order.
    public func forEachPosition(_ body: (_ beacon: Int, _ time: Timestamp, _ position: Vector3) throws -> Void) rethrows {
        for (index, beacon) in scenario.beacons.enumerated() where beacon.gateway == nil {
            var time = scenario.start
            while time <= scenario.end {
                if let position = scenario.position(of: beacon, at: time) { try body(index, time, position) }
                time = time + sampleInterval
            }
        }
    }

    /// The truth as JSON objects (without newlines): a `stay` line per stay, then a `position`
    /// line per sample, each naming the beacon and carrying its `id`.
    func forEachJSONLine(_ body: (JSONWriter) throws -> Void) throws {
        func line(type: String, beacon: Int, _ members: (inout JSONWriter) -> Void) -> JSONWriter {
            var json = JSONWriter()
            json.object { json in
                json.member("type", type)
                json.member("beacon", scenario.beacons[beacon].name)
                json.key("id")
                scenario.beacons[beacon].identity.beaconID.writeJSON(to: &json)
                members(&json)
            }
            return json
        }
        for stay in stays() {
            try body(
                line(type: "stay", beacon: stay.beaconIndex) { json in
                    json.member("room", stay.room)
                    json.member("floor", stay.floor)
                    json.member("from", stay.from.rfc3339String)
                    json.member("to", stay.to.rfc3339String)
                })
        }
        try forEachPosition { beacon, time, position in
            try body(
                line(type: "position", beacon: beacon) { json in
                    json.member("time", time.rfc3339String)
                    json.key("x")
                    json.value(position.x, decimals: 3)
                    json.key("y")
                    json.value(position.y, decimals: 3)
                    json.key("z")
                    json.value(position.z, decimals: 3)
                })
        }
    }
}
