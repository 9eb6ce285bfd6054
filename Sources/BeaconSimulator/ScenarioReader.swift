import BeaconConfiguration
import BeaconCore
import BeaconSiteReport
import BeaconWire
import FoundationEssentials

/// Reads a scenario's YAML tree into a ``Scenario``, expanding `count:` groups and checking
/// every key, type and cross-reference.
struct ScenarioReader {
    static let topKeys = [
        "name", "start", "duration", "seed", "radio", "gateways", "beacons", "walkers", "rooms", "floors", "walls", "blocks",
    ]
    static let radioKeys = [
        "path_loss_exponent", "shadowing_sigma", "place_shadowing", "fading", "rician_k", "packet_loss",
        "collisions", "airtime", "channel_spacing", "sensitivity", "minimum_distance", "floor_loss",
    ]
    static let gatewayKeys = ["name", "position", "scan", "report", "room", "advertise", "advertise_power", "rssi_bias", "kind"]
    static let roomKeys = ["name", "area", "floor"]
    static let floorKeys = ["name", "z"]
    static let scanKeys = ["interval", "window"]
    static let beaconKeys = [
        "name", "count", "ibeacon", "altbeacon", "eddystone", "phone", "measured_power", "interval",
        "position", "area", "carried_by", "address",
    ]
    static let walkerKeys = ["name", "count", "stagger", "spread", "speed", "dwell", "start", "repeat", "waypoints"]

    func read(_ root: ConfigNode) throws(ConfigurationError) -> Scenario {
        let top = try root.mapping("the scenario", allowed: Self.topKeys)
        let name = try top["name"]?.string() ?? "scenario"
        let start = try top["start"]?.timestamp() ?? Timestamp(rfc3339: "2025-01-01T00:00:00Z")!
        let duration = try top.required("duration").positiveDuration()
        let seedValue =
            try top["seed"].map { field throws(ConfigurationError) -> UInt64 in
                guard let text = field.scalarText, let value = UInt64(text) else {
                    throw field.invalid("a non-negative integer seed")
                }
                return value
            } ?? 1
        let radio = try top["radio"].map(readRadio) ?? RadioModel()
        let floors = try readFloors(top["floors"])
        let rooms = try readRooms(top["rooms"], floors: floors)
        let gatewayFields = try top.required("gateways").sequence(of: "gateways")
        guard !gatewayFields.isEmpty else { throw try top.required("gateways").invalid("at least one gateway") }
        var gateways: [GatewaySpec] = []
        for field in gatewayFields {
            let gateway = try readGateway(field, rooms: rooms, floors: floors)
            try checkName(of: gateway, at: field, among: gateways, inSite: !rooms.isEmpty)
            gateways.append(gateway)
        }
        var walkerGroups: [String: Range<Int>] = [:]
        var walkers: [Walker] = []
        var layout = SplitMix64.derived(seed: seedValue, stream: 0x1A70)
        for field in try top["walkers"]?.sequence(of: "walkers") ?? [] {
            let (groupName, members) = try readWalkers(field, random: &layout)
            walkerGroups[groupName] = walkers.count..<(walkers.count + members.count)
            walkers += members
        }
        var beacons: [BeaconSpec] = []
        for field in try top.required("beacons").sequence(of: "beacons") {
            beacons += try readBeacons(field, firstIndex: beacons.count, walkerGroups: walkerGroups, random: &layout)
        }
        beacons += Self.gatewayBeacons(gateways, site: name, firstIndex: beacons.count)
        var scenario = Scenario(
            name: name, start: start, duration: duration, seed: seedValue, radio: radio,
            gateways: gateways, beacons: beacons, walkers: walkers, rooms: rooms, floors: floors)
        scenario.obstacles = try SiteObstacle.read(walls: top["walls"], blocks: top["blocks"], floors: floors.map(\.name))
        return scenario
    }

    /// A gateway's name is its own (`--gateway NAME` and `simulate: {gateway: NAME}` pick it), and
    /// in a site it is the gateway's id in its MQTT topics.
    func checkName(of gateway: GatewaySpec, at field: ConfigNode, among earlier: [GatewaySpec], inSite: Bool)
        throws(ConfigurationError)
    {
        let nameField = try field.required("name")
        guard !earlier.contains(where: { $0.name == gateway.name }) else {
            throw nameField.invalid("a gateway name not used before ('\(gateway.name)' is listed twice)")
        }
        let isTopicLevel =
            (1...64).contains(gateway.name.utf8.count)
            && gateway.name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || "0123456789-_.".unicodeScalars.contains($0))
            }
        guard !inSite || isTopicLevel else {
            throw nameField.invalid("a site gateway's name of 1–64 letters, digits, '-', '_' or '.' (it is a topic level)")
        }
    }

    /// `floors: [{name: ground, z: 0}, {name: upper, z: 4}]`: names and elevations, both distinct.
    func readFloors(_ field: ConfigNode?) throws(ConfigurationError) -> [ScenarioFloor] {
        guard let field else { return [] }
        var floors: [ScenarioFloor] = []
        for entry in try field.sequence(of: "floors") {
            let map = try entry.mapping("a floor", allowed: Self.floorKeys)
            let nameField = try map.required("name")
            let name = try nameField.string()
            let zField = try map.required("z")
            let z = try zField.number(in: -1000...1000, "the floor's height in metres")
            guard !floors.contains(where: { $0.name == name }) else {
                throw nameField.invalid("a floor name not used before ('\(name)' is listed twice)")
            }
            guard !floors.contains(where: { $0.elevation == z }) else {
                throw zField.invalid("a height no other floor has")
            }
            floors.append(ScenarioFloor(name: name, elevation: z))
        }
        guard !floors.isEmpty else { throw field.invalid("at least one floor, or no floors: at all") }
        return floors.sorted { $0.elevation < $1.elevation }
    }

    func readRooms(_ field: ConfigNode?, floors: [ScenarioFloor] = []) throws(ConfigurationError) -> [ScenarioRoom] {
        guard let field else { return [] }
        var rooms: [ScenarioRoom] = []
        for entry in try field.sequence(of: "rooms") {
            let map = try entry.mapping("a room", allowed: Self.roomKeys)
            let nameField = try map.required("name")
            let name = try nameField.string()
            guard !rooms.contains(where: { $0.name == name }) else {
                throw nameField.invalid("a room name not used before ('\(name)' is listed twice)")
            }
            let box = try map.required("area").mapping("area", allowed: Self.areaKeys)
            let corner = try box.required("min").vector()
            let opposite = try box.required("max").vector()
            guard corner.x != opposite.x, corner.y != opposite.y else {
                throw try map.required("area").invalid("a rectangle with an area (min and max differ in x and in y)")
            }
            var floor = floors.first?.name
            if let f = map["floor"] {
                let named = try f.string()
                guard floors.contains(where: { $0.name == named }) else {
                    throw f.invalid("one of the scenario's floors (\(floors.map(\.name).joined(separator: ", ")))")
                }
                floor = named
            }
            rooms.append(ScenarioRoom(name: name, corner: corner, opposite: opposite, floor: floor))
        }
        guard !rooms.isEmpty else { throw field.invalid("at least one room, or no rooms: at all") }
        return rooms
    }

    func readRadio(_ field: ConfigNode) throws(ConfigurationError) -> RadioModel {
        let map = try field.mapping("radio", allowed: Self.radioKeys)
        var radio = RadioModel()
        if let f = map["path_loss_exponent"] {
            radio.pathLossExponent = try f.number(in: 1...6, "a path-loss exponent from 1 to 6")
        }
        if let f = map["shadowing_sigma"] {
            radio.shadowingSigma = try f.number(in: 0...20, "a standard deviation from 0 to 20 dB")
        }
        if let f = map["place_shadowing"] {
            let place = try f.mapping("radio.place_shadowing", allowed: ["sigma", "length"])
            radio.placeShadowingSigma = try place["sigma"]?.number(in: 0...20, "a standard deviation from 0 to 20 dB") ?? 4
            radio.placeShadowingLength = try place["length"]?.number(in: 0.1...100, "a length from 0.1 to 100 m") ?? 3
        }
        if let f = map["fading"] {
            switch f.scalarText {
            case "none": radio.fading = .none
            case "rayleigh": radio.fading = .rayleigh
            case "rician":
                let k = try map["rician_k"]?.number(in: 0...1000, "a Rician K factor ≥ 0 (linear)") ?? 6
                radio.fading = .rician(k: k)
            default: throw f.invalid("none, rayleigh or rician")
            }
        }
        if let f = map["packet_loss"] {
            radio.packetLoss = try f.number(in: 0...1, "a probability from 0 to 1")
        }
        if let f = map["collisions"] { radio.collisions = try f.bool() }
        if let f = map["airtime"] { radio.airtime = try f.positiveDuration() }
        if let f = map["channel_spacing"] { radio.channelSpacing = try f.duration() }
        if let f = map["sensitivity"] {
            radio.sensitivity = try f.integer(in: -127...20, "an RSSI in dBm from -127 to 20")
        }
        if let f = map["minimum_distance"] {
            radio.minimumDistance = try f.number(in: 0.001...10, "a distance from 0.001 to 10 m")
        }
        if let f = map["floor_loss"] { radio.floorLoss = try f.number(in: 0...100, "a loss from 0 to 100 dB") }
        return radio
    }

    func readGateway(_ field: ConfigNode, rooms: [ScenarioRoom], floors: [ScenarioFloor] = []) throws(ConfigurationError)
        -> GatewaySpec
    {
        let map = try field.mapping("a gateway", allowed: Self.gatewayKeys)
        let name = try map.required("name").string()
        let position = try map.required("position").vector()
        var scan = ScanTiming.continuous
        if let scanField = map["scan"] {
            let scanMap = try scanField.mapping("scan", allowed: Self.scanKeys)
            let intervalField = try scanMap.required("interval")
            let interval = try intervalField.positiveDuration()
            let windowField = try scanMap.required("window")
            let window = try windowField.positiveDuration()
            // What a controller would refuse, refused here, at the line that says it.
            for (field, value) in [(intervalField, interval), (windowField, window)]
            where value < ScanTiming.minimumTime || value > ScanTiming.maximumTime {
                throw field.invalid("a time from 2.5ms to 10240ms (the HCI range of LE Set Scan Parameters)")
            }
            guard window <= interval else { throw windowField.invalid("a window no longer than the interval") }
            do {
                scan = try ScanTiming(interval: interval, window: window)
            } catch {
                throw scanField.error(error.description)
            }
        }
        var reportKind = AdvertisingReportKind.legacy
        if let f = map["report"] {
            guard let value = GatewaySpec.reportKinds.first(where: { $0.name == f.scalarText }) else {
                throw f.invalid("legacy or extended")
            }
            reportKind = value
        }
        let probe = Scenario(
            name: "", start: .epoch, duration: .seconds(1), seed: 0, radio: RadioModel(), gateways: [], beacons: [],
            walkers: [], rooms: rooms, floors: floors)
        var room = probe.room(at: position)
        if let f = map["room"] {
            let named = try f.string()
            guard rooms.contains(where: { $0.name == named }) else {
                throw f.invalid("one of the scenario's rooms (\(rooms.map(\.name).joined(separator: ", ")))")
            }
            room = named
        }
        let advertise = try map["advertise"]?.bool() ?? false
        let advertisePower = try map["advertise_power"]?.integer(in: -100...0) ?? -59
        let rssiBias = try map["rssi_bias"]?.number(in: -40...40, "a bias from -40 to 40 dB") ?? 0
        var gateway = GatewaySpec(
            name: name, position: position, scan: scan, reportKind: reportKind, room: room, floor: probe.floor(at: position),
            advertise: advertise,
            advertisePower: advertisePower, rssiBias: rssiBias)
        if let f = map["kind"] {
            let kind = try f.choice(["beacond", "espresense"])
            gateway.kind = kind == "beacond" ? nil : kind
            if gateway.kind != nil, rooms.isEmpty {
                throw f.error("kind: espresense is for a gateway of a site: the scenario has no rooms:")
            }
        }
        return gateway
    }

    /// The advertisers of the gateways with `advertise: true`: each gateway's site identity
    /// (`SiteGatewayBeacon.identity(site:gateway:)`, the scenario's name being the site's) at its
    /// position, every 100 ms (a gateway's default), heard by every gateway but itself.
    static func gatewayBeacons(_ gateways: [GatewaySpec], site: String, firstIndex: Int) -> [BeaconSpec] {
        var beacons: [BeaconSpec] = []
        for (index, gateway) in gateways.enumerated() where gateway.advertise {
            let id = SiteGatewayBeacon.identity(site: site, gateway: gateway.name)
            var beacon = BeaconSpec(
                name: "gateway-" + gateway.name, identity: .iBeacon(uuid: id.uuid, major: id.major, minor: id.minor),
                measuredPower: gateway.advertisePower, interval: .milliseconds(100), placement: .fixed(gateway.position),
                address: BeaconSpec.defaultAddress(index: firstIndex + beacons.count))
            beacon.gateway = index
            beacons.append(beacon)
        }
        return beacons
    }
}
