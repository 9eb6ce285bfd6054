import BeaconConfiguration
import BeaconCore
import BeaconRanging

extension RangingConfiguration {
    static let configurationKeys = [
        "cycle", "grace", "retention", "filter", "spikeClamp", "distanceModel", "pathLossExponent",
        "measuredPower", "proximity", "exitTimeout", "regions", "calibrations", "maxTracked",
        "maxNewPerCycle", "enter",
    ]

    /// Reads the `ranging:` section; every key is optional and defaults as documented in
    /// Docs/Ranging.md.
    ///
    /// ```yaml
    /// ranging:
    ///   cycle: 1s
    ///   grace: 3s
    ///   retention: 30s
    ///   filter: arma                 # running-average | arma | kalman | one-euro | percentile,
    ///                                # or with parameters: {kind: kalman, processNoise: 0.01, measurementNoise: 3}
    ///   spikeClamp: 10               # dB per sample, optional
    ///   distanceModel: log-distance  # or curve-fitted
    ///   pathLossExponent: 1.5
    ///   measuredPower: -59           # RSSI at 1 m for frames that carry none
    ///   proximity: {immediate: 0.5, near: 3, enterMargin: 0.1, leaveMargin: 0.1}
    ///   exitTimeout: 10s             # regions' default
    ///   maxTracked: 200000           # beacons tracked at once (a flood of identities is refused past it)
    ///   enter: {minSightings: 3, within: 5s, minRSSI: -90}   # a stray packet is no arrival (default: 1 sighting)
    ///   regions:
    ///     - {id: lobby, match: {uuid: 74278BDA-B644-4520-8F0C-720EAF059935, major: 1}, exitTimeout: 20s}
    ///   calibrations:                # per beacon: RSSI at 1 m and path-loss exponent, measured on site
    ///     - {beacon: "ibeacon:74278BDA-B644-4520-8F0C-720EAF059935:1:2", measuredPower: -63, pathLossExponent: 2.1}
    /// ```
    init(node: ConfigNode) throws(ConfigurationError) {
        try node.checkKeys(allowed: Self.configurationKeys)
        self.init()
        if let value = node["cycle"] { cycleLength = try value.duration() }
        if let value = node["grace"] { missedScanGrace = try value.duration() }
        if let value = node["retention"] { retention = try value.duration() }
        if let value = node["filter"] { filter = try RSSIFilterKind(node: value) }
        if let value = node["spikeClamp"] { spikeClamp = try value.number() }
        if let value = node["distanceModel"] {
            guard let model = DistanceModelKind(name: try value.string()) else {
                throw value.error("unknown distance model '\(value.scalarText ?? "")'; valid: log-distance, curve-fitted")
            }
            distanceModel = model
        }
        if let value = node["pathLossExponent"] {
            guard case .logDistance(var model) = distanceModel else {
                throw value.error("pathLossExponent applies to the log-distance model only")
            }
            model.exponent = try value.number()
            distanceModel = .logDistance(model)
        }
        if let value = node["measuredPower"] { defaultMeasuredPower = Int8(try value.integer(in: -127...20)) }
        if let bands = node["proximity"] { proximity = try ProximityBands(node: bands) }
        if let value = node["exitTimeout"] { defaultExitTimeout = try value.duration() }
        if let value = node["maxTracked"] { maxTracked = try value.integer(in: 1...10_000_000) }
        if let value = node["maxNewPerCycle"] { maxNewPerCycle = try value.integer(in: 1...1_000_000) }
        if let value = node["enter"] {
            try value.checkKeys(allowed: ["minSightings", "within", "minRSSI"])
            if let n = value["minSightings"] { enter.minimumSightings = try n.integer(in: 1...255) }
            if let n = value["within"] { enter.window = try n.positiveDuration() }
            if let n = value["minRSSI"] { enter.minimumRSSI = try n.number(in: -127...20, "an RSSI from -127 to 20 dBm") }
        }
        if let list = node["regions"] {
            for item in try list.sequence() {
                try item.checkKeys(allowed: ["id", "match", "exitTimeout"])
                let id = try item.required("id").string()
                if regions.contains(where: { $0.id == id }) { throw item.error("duplicate region id '\(id)'") }
                let match = try item["match"].map { n throws(ConfigurationError) in try BeaconMatch(node: n) } ?? .any
                regions.append(
                    BeaconRegion(
                        id: id, match: match,
                        exitTimeout: try item["exitTimeout"]?.duration()))
            }
        }
        if let list = node["calibrations"] {
            for item in try list.sequence() {
                try item.checkKeys(allowed: ["beacon", "measuredPower", "pathLossExponent"])
                let beaconNode = try item.required("beacon")
                let text = try beaconNode.string()
                guard let id = BeaconID(text) else {
                    throw beaconNode.error(
                        "'\(text)' is not a beacon id; write ibeacon:UUID:MAJOR:MINOR, "
                            + "altbeacon:UUID:ID2:ID3 or eddystone-uid:NAMESPACE:INSTANCE")
                }
                if calibrations[id] != nil { throw beaconNode.error("\(id) is calibrated twice") }
                let power = try item["measuredPower"].map { n throws(ConfigurationError) in Int8(try n.integer(in: -127...20)) }
                let exponent = try item["pathLossExponent"]?.number()
                if let exponent, !(exponent > 0) { throw item["pathLossExponent"]!.error("pathLossExponent must be positive") }
                guard power != nil || exponent != nil else {
                    throw item.error("a calibration gives measuredPower, pathLossExponent or both")
                }
                calibrations[id] = BeaconCalibration(measuredPower: power, pathLossExponent: exponent)
            }
        }
        do {
            try validate()
        } catch {
            throw node.error(error.description)
        }
    }
}
