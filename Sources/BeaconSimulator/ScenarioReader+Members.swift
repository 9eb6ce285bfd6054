import BeaconConfiguration
import BeaconCore
import FoundationEssentials

extension ScenarioReader {
    static let waypointKeys = ["at", "dwell"]
    static let areaKeys = ["min", "max"]
    static let iBeaconKeys = ["uuid", "major", "minor"]
    static let altBeaconKeys = ["id1", "id2", "id3", "manufacturer"]
    static let eddystoneKeys = ["namespace", "instance", "tlm"]
    static let tlmKeys = ["battery_mv", "drain_mv_per_day", "temperature", "every"]
    static let phoneKeys = ["irk", "rotate"]

    /// Reads one `walkers:` entry, expanded to `count` members (named `name-1` … when count > 1).
    func readWalkers(_ field: ConfigNode, random: inout SplitMix64) throws(ConfigurationError) -> (String, [Walker]) {
        let map = try field.mapping("a walker", allowed: Self.walkerKeys)
        let name = try map.required("name").string()
        let count = try map["count"]?.integer(in: 1...1_000_000, "a count from 1 to 1000000") ?? 1
        let stagger = try map["stagger"]?.duration() ?? .zero
        let spread = try map["spread"]?.number(in: 0...1000, "a distance in metres ≥ 0") ?? 0
        let speed = try map["speed"]?.number(in: 0.001...100, "a speed in m/s, greater than 0") ?? 1.2
        let defaultDwell = try map["dwell"]?.duration() ?? .zero
        let start = try map["start"]?.duration() ?? .zero
        let repeats = try map["repeat"]?.bool() ?? false
        let waypointField = try map.required("waypoints")
        let waypoints = try waypointField.sequence(of: "waypoints").map { point throws(ConfigurationError) -> Walker.Waypoint in
            if point.isMapping {
                let stop = try point.mapping("a waypoint", allowed: Self.waypointKeys)
                return Walker.Waypoint(
                    try stop.required("at").vector(),
                    dwell: try stop["dwell"]?.duration() ?? defaultDwell)
            }
            return Walker.Waypoint(try point.vector(), dwell: defaultDwell)
        }
        guard !waypoints.isEmpty else { throw waypointField.invalid("at least one waypoint") }
        var members: [Walker] = []
        for index in 0..<count {
            var path = waypoints
            if spread > 0 {
                for i in path.indices {
                    path[i].position.x += (random.nextUnit() * 2 - 1) * spread
                    path[i].position.y += (random.nextUnit() * 2 - 1) * spread
                }
            }
            members.append(
                Walker(
                    name: count == 1 ? name : "\(name)-\(index + 1)", waypoints: path, speed: speed,
                    start: start + stagger * index, repeats: repeats))
        }
        return (name, members)
    }

    /// Reads one `beacons:` entry, expanded to `count` members whose last identity number counts up.
    func readBeacons(
        _ field: ConfigNode, firstIndex: Int, walkerGroups: [String: Range<Int>],
        random: inout SplitMix64
    ) throws(ConfigurationError) -> [BeaconSpec] {
        let map = try field.mapping("a beacon", allowed: Self.beaconKeys)
        let name = try map.required("name").string()
        let identity = try readIdentity(map, name: name)
        let telemetry = try map["eddystone"].flatMap { eddystone throws(ConfigurationError) -> BeaconSpec.Telemetry? in
            let eddy = try eddystone.mapping("eddystone", allowed: Self.eddystoneKeys)
            return try eddy["tlm"].map(readTelemetry)
        }
        let measuredPower = try map["measured_power"]?.integer(in: -127...20, "an RSSI at 1 m in dBm, e.g. -59") ?? -59
        let interval = try map["interval"]?.duration() ?? .seconds(1)
        if let f = map["interval"], interval < .milliseconds(20) || interval > .seconds(10_486) {
            throw f.invalid("an advertising interval from 20ms to 10485s")
        }
        let placements = ["position", "area", "carried_by"].filter(map.has)
        guard placements.count == 1 else {
            if placements.isEmpty {
                throw field.error("missing 'position, area or carried_by' in beacon '\(name)'; add one")
            }
            throw map[placements[1]]!.invalid("only one of position, area or carried_by")
        }
        var carriers: Range<Int>?
        if let carrier = map["carried_by"] {
            let walkerName = try carrier.string()
            guard let group = walkerGroups[walkerName] else {
                throw carrier.invalid(
                    "the name of a walker declared under walkers: (\(walkerGroups.keys.sorted().joined(separator: ", ")))")
            }
            carriers = group
        }
        let countField = map["count"]
        let count = try countField?.integer(in: 1...1_000_000, "a count from 1 to 1000000") ?? carriers?.count ?? 1
        if let carriers, count != carriers.count {
            throw (countField ?? field).invalid(
                "a count equal to the walker group's count (\(carriers.count)), one beacon per walker")
        }
        if case .phone(_, let irk, _) = identity, irk != nil, let countField, count > 1 {
            throw countField.invalid("a count of 1 for a phone with an irk (one key is one device)")
        }
        var address: BluetoothAddress?
        if let f = map["address"] {
            guard count == 1, let text = f.scalarText, let value = BluetoothAddress(text) else {
                throw f.invalid("an address aa:bb:cc:dd:ee:ff (for a single beacon)")
            }
            address = value
        }
        var area: (Vector3, Vector3)?
        if let f = map["area"] {
            let box = try f.mapping("area", allowed: Self.areaKeys)
            area = (try box.required("min").vector(), try box.required("max").vector())
        }
        let fixed = try map["position"]?.vector()
        var members: [BeaconSpec] = []
        for index in 0..<count {
            let placement: BeaconSpec.Placement
            if let carriers {
                placement = .carried(walkerIndex: carriers.lowerBound + index)
            } else if let (low, high) = area {
                placement = .fixed(
                    Vector3(
                        low.x + (high.x - low.x) * random.nextUnit(),
                        low.y + (high.y - low.y) * random.nextUnit(),
                        low.z + (high.z - low.z) * random.nextUnit()))
            } else {
                placement = .fixed(fixed ?? .zero)
            }
            let memberName = count == 1 ? name : "\(name)-\(index + 1)"
            var memberIdentity = identity.offset(by: index)
            if case .phone(_, let irk, let rotation) = identity {
                guard BeaconID.device(named: memberName) != nil else {
                    throw try map.required("name").invalid(
                        "a phone's name that a device id can hold: 1 to 20 letters, digits, '-', '_' or '.' (with its count's -N)"
                    )
                }
                memberIdentity = .phone(name: memberName, irk: irk, rotation: rotation)
            }
            members.append(
                BeaconSpec(
                    name: memberName, identity: memberIdentity,
                    measuredPower: measuredPower, interval: interval, placement: placement,
                    address: address ?? BeaconSpec.defaultAddress(index: firstIndex + index), telemetry: telemetry))
        }
        return members
    }

    func readIdentity(_ map: ConfigNode, name: String) throws(ConfigurationError) -> BeaconIdentity {
        let kinds = ["ibeacon", "altbeacon", "eddystone", "phone"].filter(map.has)
        guard kinds.count == 1 else {
            if kinds.isEmpty {
                throw map.error("missing 'ibeacon, altbeacon, eddystone or phone' in a beacon; add one")
            }
            throw map[kinds[1]]!.invalid("only one of ibeacon, altbeacon, eddystone or phone")
        }
        switch kinds[0] {
        case "phone":
            let m = try map.required("phone").mapping("phone", allowed: Self.phoneKeys)
            let irk = try m["irk"]?.hexBytes(count: 16)
            let rotation = try m["rotate"]?.positiveDuration() ?? .seconds(15 * 60)
            return .phone(name: name, irk: irk, rotation: rotation)
        case "ibeacon":
            let m = try map.required("ibeacon").mapping("ibeacon", allowed: Self.iBeaconKeys)
            return .iBeacon(
                uuid: try m.required("uuid").uuid(), major: try m.required("major").uint16(),
                minor: try m.required("minor").uint16())
        case "altbeacon":
            let m = try map.required("altbeacon").mapping("altbeacon", allowed: Self.altBeaconKeys)
            return .altBeacon(
                id1: try m.required("id1").uuid(), id2: try m.required("id2").uint16(),
                id3: try m.required("id3").uint16(),
                manufacturer: try m["manufacturer"]?.uint16() ?? 0x0118)
        default:
            let m = try map.required("eddystone").mapping("eddystone", allowed: Self.eddystoneKeys)
            return .eddystoneUID(
                namespace: try m.required("namespace").hexBytes(count: 10),
                instance: try m.required("instance").hexBytes(count: 6))
        }
    }

    func readTelemetry(_ field: ConfigNode) throws(ConfigurationError) -> BeaconSpec.Telemetry {
        let m = try field.mapping("tlm", allowed: Self.tlmKeys)
        return BeaconSpec.Telemetry(
            batteryMillivolts: try m["battery_mv"]?.integer(in: 0...65_535, "millivolts from 0 to 65535") ?? 3000,
            drainMillivoltsPerDay: try m["drain_mv_per_day"]?.number(in: 0...65_535, "millivolts per day ≥ 0") ?? 0,
            temperature: try m["temperature"]?.number(in: -128...127, "°C from -128 to 127") ?? 20,
            every: try m["every"]?.integer(in: 1...1000, "an advertisement count from 1 to 1000") ?? 10)
    }
}
