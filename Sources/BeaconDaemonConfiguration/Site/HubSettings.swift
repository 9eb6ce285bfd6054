import BeaconConfiguration
import BeaconCore
import BeaconForeignNodes
import BeaconRanging
import BeaconSite
import BeaconSiteReport
import Foundation

/// What a site hub needs beyond `site:`: the gateways (`gateways:`), the fusion's settings and
/// which buckets this hub takes (`hub:`).
///
/// ```yaml
/// gateways:
///   - {id: hall-nw, room: hall, position: [5, 5, 3]}
///   - {id: shop, room: shop, position: [35, 5, 3], rssiOffset: 4, keyFile: keys/shop.hex}   # signs its reports
///   - {id: office, kind: espresense, room: office, position: [20, 5, 2]}   # an ESPresense node (Docs/ForeignNodes.md)
/// walls: [[[0, 0], [40, 0], [40, 20]]]   # the grid filter's floor plan (Docs/Site.md, "The floor plan")
/// blocks: [{min: [10, 8], max: [14, 12]}]
/// rooms: [{name: hall, min: [0, 0], max: [25, 20]}]   # outlines: rooms decided from the grid filter's positions
/// hub:
///   cycle: 1s
///   lateness: 1s
///   staleness: 3s
///   retention: 30s
///   room: {margin: 4, minDwell: 2s, floorMargin: 8, floorMinDwell: 5s, minRSSI: -95, minConfidence: 0, minGateways: 1, scoreSigma: 6}
///   gatewayOffline: 10s            # no report for this long: the gateway is offline
///   position: {minGateways: 3, tagHeight: 1.2, pathLossExponent: 1.5, modelSigma: 6, offsetPrior: 10, tracking: 0.5,
///              grid: off}   # on, off, or {cellSize: 0.5, maxCells: 993, walkingSpeed: 4, stillShare: 0.2, sensitivity: -95};
///                           # unset: on, with maxCells what a 4 KiB state per beacon leaves
///   maxRecordsPerReport: 4096      # a longer report is refused whole
///   maxBeaconsPerGateway: 20000    # new beacons one gateway may bring in
///   clockTolerance: 5s             # a report claiming a time this far past its gateway's clock is refused
///   partition: {index: 0, of: 2}     # this hub takes the buckets b with b mod 2 = 0
///   presence: /var/lib/beacond/presence.jsonl   # every fused beacon, every cycle
///   floorPlan: {image: /etc/beacond/plan.png, min: [0, 0], max: [40, 20]}   # under the status page's map
///   takeover: {id: hub-a}          # hot standby with the other hubs of this share (Docs/Site.md)
/// ```
public struct HubSettings: Sendable {
    /// The gateways and rooms.
    public var layout: SiteLayout
    /// The fusion's settings.
    public var fusion: SiteFusionConfiguration
    /// This hub's share of the buckets: `index` of `of` hubs.
    public var partition: (index: Int, of: Int)
    /// Where to write a presence line per fused beacon per cycle (one JSON object per line; the format is in `Docs/Site.md`), if anywhere.
    public var presencePath: String?
    /// The image the status page draws under its map, if any.
    public var floorPlan: FloorPlan?
    /// Hot standby with the other hubs of this share (`hub.takeover`), if configured.
    public var takeover: HubTakeover?
    /// Where the hub keeps its calibrated radio model across restarts (`hub.calibration.file`);
    /// `nil`: next to the state file (`STATE.calibration.json`), or nowhere without one.
    public var calibrationPath: String?
    /// The gateways that are foreign nodes (`kind: espresense`, `openmqttgateway`, `theengs`),
    /// by gateway id, with their topics; the others are beacond gateways.
    public var foreignNodes: [String: ForeignNodeEndpoint] = [:]

    /// The file the calibrated model is kept in, given the daemon's state file.
    public func calibrationFile(statePath: String?) -> String? {
        guard fusion.calibration.enabled else { return nil }
        return calibrationPath ?? statePath.map { $0 + ".calibration.json" }
    }

    /// Creates settings.
    public init(
        layout: SiteLayout, fusion: SiteFusionConfiguration = SiteFusionConfiguration(), partition: (index: Int, of: Int) = (0, 1)
    ) {
        self.layout = layout
        self.fusion = fusion
        self.partition = partition
    }

    /// The buckets this hub subscribes to, out of `bucketCount`.
    public func buckets(of bucketCount: Int) -> [Int] {
        (0..<bucketCount).filter { $0 % partition.of == partition.index }
    }

    static func read(
        gateways gatewaysNode: ConfigNode, hub hubNode: ConfigNode?, anchors anchorsNode: ConfigNode? = nil,
        walls: ConfigNode? = nil, blocks: ConfigNode? = nil, rooms: ConfigNode? = nil, site: String? = nil,
        gatewayKeys: [String] = []
    ) throws(ConfigurationError) -> HubSettings {
        var gateways: [SiteGateway] = []
        var foreignNodes: [String: ForeignNodeEndpoint] = [:]
        for entry in try gatewaysNode.sequence(of: "gateways") {
            try entry.checkKeys(
                allowed: ["id", "room", "floor", "position", "rssiOffset", "key", "keyFile"] + foreignNodeKeys + gatewayKeys,
                in: "gateways[]")
            let id = try entry.required("id").string()
            guard SiteGateway.isValidID(id) else {
                throw entry["id"]!.error("gateway id '\(id)' cannot be a topic level: use 1–64 letters, digits, '-', '_' or '.'")
            }
            if let endpoint = try readForeignNode(entry, id: id) {
                if let other = foreignNodes.first(where: { $0.value == endpoint }) {
                    throw entry.error(
                        "gateway \(id) publishes under the same topics as gateway \(other.key): give it its own node:")
                }
                foreignNodes[id] = endpoint
            }
            var position: Vector3?
            if let node = entry["position"] {
                let values = try node.numbers(count: 2...3, "a position [x, y, z] in metres")
                position = Vector3(x: values[0], y: values[1], z: values.count == 3 ? values[2] : 0)
            }
            if gateways.contains(where: { $0.id == id }) {
                throw entry["id"]!.error("gateway id '\(id)' is listed twice: every gateway needs its own id")
            }
            gateways.append(
                SiteGateway(
                    id: id, room: try entry["room"]?.string(), position: position,
                    rssiOffset: try entry["rssiOffset"]?.number(in: -40...40, "an offset from -40 to 40 dB") ?? 0,
                    key: try GatewayKey.read(from: entry), floor: try entry["floor"]?.string()))
        }
        try checkFloors(gateways, entries: try gatewaysNode.sequence(of: "gateways"))
        let anchors = try anchorsNode.map { node throws(ConfigurationError) in try readAnchors(node) } ?? []
        var layout: SiteLayout
        do {
            layout = try SiteLayout(gateways: gateways, anchors: anchors, site: site)
        } catch {
            throw (anchorsNode ?? gatewaysNode).error(error.description)
        }
        try drawFloorPlan(on: &layout, walls: walls, blocks: blocks, rooms: rooms)
        var options = try readOptions(hubNode)
        if let room = layout.roomsWithoutGateway.first {
            // Only the grid filter can place a tag in it, and it needs three positioned gateways.
            if options.fusion.positioning.gridInUse == nil {
                throw (hubNode?["position"]?["grid"] ?? rooms ?? gatewaysNode).error(
                    "room '\(room)' has no gateway: only the grid filter can place a tag in it, and hub.position.grid is "
                        + "off; turn the grid filter on, or give the room a gateway")
            }
            let positioned = layout.gateways.filter { $0.position != nil }.count
            if positioned < 3 {
                throw (rooms ?? gatewaysNode).error(
                    "room '\(room)' has no gateway: only the grid filter can place a tag in it, and it needs 3 gateways "
                        + "with a position (\(positioned) have one); give the gateways their positions")
            }
        }
        // A gateway's rssiOffset set by hand stays as given.
        for entry in try gatewaysNode.sequence(of: "gateways").enumerated() where entry.element["rssiOffset"] != nil {
            options.fusion.calibration.fixedOffsets.insert(entry.offset)
        }
        var settings = HubSettings(layout: layout, fusion: options.fusion, partition: options.partition)
        settings.presencePath = options.presence
        settings.floorPlan = options.floorPlan
        settings.takeover = options.takeover
        settings.calibrationPath = try hubNode?["calibration"]?["file"]?.filePath()
        settings.foreignNodes = foreignNodes
        return settings
    }

    /// A room is on one floor: a gateway naming another floor than an earlier gateway of its room
    /// is refused at its `floor:`.
    static func checkFloors(_ gateways: [SiteGateway], entries: [ConfigNode]) throws(ConfigurationError) {
        var floorOfRoom: [String: (floor: String, gateway: String)] = [:]
        for (gateway, entry) in zip(gateways, entries) {
            guard let room = gateway.room, let floor = gateway.floor else { continue }
            if let earlier = floorOfRoom[room], earlier.floor != floor {
                throw (entry["floor"] ?? entry).error(
                    "gateway \(gateway.id) is on floor '\(floor)' but gateway \(earlier.gateway) of room '\(room)' is on floor '\(earlier.floor)': a room is on one floor"
                )
            }
            floorOfRoom[room] = (floor, gateway.id)
        }
    }

    /// Reads `hub:` alone: the fusion's settings, the partition, the presence file and the floor plan.
    static func readOptions(
        _ hub: ConfigNode?
    ) throws(ConfigurationError) -> (
        fusion: SiteFusionConfiguration, partition: (index: Int, of: Int), presence: String?, floorPlan: FloorPlan?,
        takeover: HubTakeover?
    ) {
        var fusion = SiteFusionConfiguration()
        var partition = (index: 0, of: 1)
        var presencePath: String?
        var floorPlan: FloorPlan?
        var takeover: HubTakeover?
        if let hub {
            try hub.checkKeys(
                allowed: [
                    "cycle", "lateness", "staleness", "retention", "room", "position", "proximity", "maxTracked", "partition",
                    "presence", "floorPlan", "maxRecordsPerReport", "maxBeaconsPerGateway", "clockTolerance",
                    "signatureWindow", "takeover", "calibration", "gatewayOffline",
                ],
                in: "hub")
            if let n = hub["cycle"] { fusion.cycleLength = try n.positiveDuration() }
            if let n = hub["lateness"] { fusion.lateness = try n.duration() }
            if let n = hub["staleness"] { fusion.staleness = try n.positiveDuration() }
            if let n = hub["retention"] { fusion.retention = try n.positiveDuration() }
            if let n = hub["maxTracked"] { fusion.maxTracked = try n.integer(in: 1...10_000_000) }
            if let n = hub["maxRecordsPerReport"] {
                fusion.maxRecordsPerReport = try n.integer(in: 1...GatewayReportEncoder.maxRecords)
            }
            if let n = hub["maxBeaconsPerGateway"] { fusion.maxBeaconsPerGateway = try n.integer(in: 1...10_000_000) }
            if let n = hub["clockTolerance"] {
                let tolerance = try n.positiveDuration()
                guard tolerance >= .milliseconds(100), tolerance <= .seconds(3600) else {
                    throw n.error("hub.clockTolerance must be from 100ms to 1h")
                }
                fusion.clockTolerance = tolerance
            }
            if let n = hub["signatureWindow"] {
                let window = try n.positiveDuration()
                guard window >= .seconds(1), window <= .seconds(86_400) else {
                    throw n.error("hub.signatureWindow must be from 1s to 1d")
                }
                fusion.signatureWindow = window
            }
            if let n = hub["gatewayOffline"] { fusion.gatewayOffline = try n.positiveDuration() }
            if let room = hub["room"] {
                try room.checkKeys(
                    allowed: [
                        "margin", "minDwell", "floorMargin", "floorMinDwell", "minRSSI", "minConfidence", "minGateways",
                        "scoreSigma",
                    ], in: "hub.room")
                if let n = room["margin"] { fusion.room.margin = try n.number(in: 0...40, "a margin from 0 to 40 dB") }
                if let n = room["minDwell"] { fusion.room.minimumDwell = try n.duration() }
                if let n = room["floorMargin"] {
                    fusion.room.floorMargin = try n.number(in: 0...60, "a margin from 0 to 60 dB")
                }
                if let n = room["floorMinDwell"] { fusion.room.floorMinimumDwell = try n.duration() }
                if let n = room["minRSSI"] { fusion.room.minimumRSSI = try n.number(in: -127...20, "from -127 to 20 dBm") }
                if let n = room["minConfidence"] {
                    fusion.room.minimumConfidence = try n.number(in: 0...1, "a confidence from 0 to 1")
                }
                if let n = room["minGateways"] { fusion.room.minimumGateways = try n.integer(in: 1...16) }
                if let n = room["scoreSigma"] { fusion.room.scoreSigma = try n.number(in: 0.5...30, "from 0.5 to 30 dB") }
            }
            if let position = hub["position"] {
                try position.checkKeys(
                    allowed: [
                        "minGateways", "tagHeight", "pathLossExponent", "modelSigma", "offsetPrior", "tracking", "boundsMargin",
                        "grid",
                    ],
                    in: "hub.position")
                if let n = position["minGateways"] { fusion.positioning.minimumGateways = try n.integer(in: 2...16) }
                if let n = position["tagHeight"] {
                    fusion.positioning.tagHeight = try n.number(in: -100...100, "a height in metres")
                    fusion.calibration.fixedTagHeight = true // set by hand: calibration leaves it
                }
                if let n = position["pathLossExponent"] {
                    fusion.positioning.pathLossExponent = try n.number(in: 0.6...5.9, "an exponent from 0.6 to 5.9")
                    fusion.calibration.fixedExponent = true
                }
                if let n = position["modelSigma"] {
                    fusion.positioning.modelSigma = try n.number(in: 0.5...30, "from 0.5 to 30 dB")
                }
                if let n = position["offsetPrior"] {
                    fusion.positioning.offsetPrior = try n.number(in: 0.5...60, "from 0.5 to 60 dB")
                }
                if let n = position["tracking"] {
                    fusion.positioning.tracking =
                        n.scalarText == "off" ? nil : try n.number(in: 0.001...100, "off or a process noise from 0.001 to 100")
                }
                if let n = position["boundsMargin"] { fusion.positioning.boundsMargin = try n.number(in: 0...100, "metres") }
                if let n = position["grid"] {
                    fusion.positioning.grid = try readGrid(n)
                    fusion.positioning.gridByDefault = fusion.positioning.grid != nil
                }
            }
            if let n = hub["calibration"] { fusion.calibration = try readCalibration(n, fusion.calibration) }
            if let n = hub["proximity"] { fusion.proximity = try ProximityBands(node: n) }
            if let p = hub["partition"] {
                try p.checkKeys(allowed: ["index", "of"], in: "hub.partition")
                let of = try p.required("of").integer(in: 1...SiteTopics.maxBucketCount)
                let index = try p.required("index").integer(in: 0...(of - 1))
                partition = (index, of)
            }
            if let n = hub["presence"] { presencePath = try n.filePath() }
            if let n = hub["floorPlan"] { floorPlan = try readFloorPlan(n) }
            if let n = hub["takeover"] { takeover = try readTakeover(n) }
            do {
                try fusion.validate()
            } catch {
                throw hub.error(error.description)
            }
        }
        return (fusion, partition, presencePath, floorPlan, takeover)
    }

    /// `{id: hub-a, settle: 2s, matchWindow: 5s}`.
    private static func readTakeover(_ node: ConfigNode) throws(ConfigurationError) -> HubTakeover {
        try node.checkKeys(allowed: ["id", "settle", "matchWindow"], in: "hub.takeover")
        let id = try node.required("id").string()
        guard SiteGateway.isValidID(id) else {
            throw node["id"]!.error("hub.takeover.id '\(id)' cannot be a topic level: use 1–64 letters, digits, '-', '_' or '.'")
        }
        var takeover = HubTakeover(id: id)
        if let n = node["settle"] {
            takeover.settle = try n.positiveDuration()
            guard takeover.settle <= .seconds(60) else { throw n.error("hub.takeover.settle must be at most 1m") }
        }
        if let n = node["matchWindow"] { takeover.matchWindow = try n.duration() }
        return takeover
    }

    /// `{image: PATH, min: [x, y], max: [x, y]}`: the image must be readable now.
}
