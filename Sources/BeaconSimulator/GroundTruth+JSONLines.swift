import BeaconCore
import Foundation

extension GroundTruth {
    /// Writes the truth as JSON lines (schema in `Docs/Simulator.md`): a `header` line, one
    /// `gateway` and one `beacon` line each, `distance` lines (when `includeDistances`) and
    /// `visit` lines.
    public func writeJSONLines(includeDistances: Bool = true, _ write: (String) throws -> Void) throws {
        try write(
            "{\"type\":\"header\",\"scenario\":\(JSONText.string(scenario.name)),\"start\":\"\(scenario.start)\","
                + "\"end\":\"\(scenario.end)\",\"sample_interval_s\":\(sampleInterval.secondsValue),"
                + "\"visit\":{\"radius_m\":\(definition.radius),\"min_duration_s\":\(definition.minimumDuration.secondsValue)}}\n"
        )
        for gateway in scenario.gateways {
            let p = gateway.position
            try write("{\"type\":\"gateway\",\"gateway\":\(JSONText.string(gateway.name)),\"position\":[\(p.x),\(p.y),\(p.z)]}\n")
        }
        for beacon in scenario.beacons {
            try write(
                "{\"type\":\"beacon\",\"beacon\":\(JSONText.string(beacon.name)),\"id\":\(JSONText.identity(beacon.identity))}\n")
        }
        if includeDistances {
            var line = ""
            try forEachSample { b, g, time, distance in
                guard let distance else { return }
                line.removeAll(keepingCapacity: true)
                line += "{\"type\":\"distance\",\"time\":\"\(time)\",\"beacon\":\(JSONText.string(scenario.beacons[b].name)),"
                line +=
                    "\"gateway\":\(JSONText.string(scenario.gateways[g].name)),\"distance_m\":\(JSONText.number(distance, decimals: 3))}\n"
                try write(line)
            }
        }
        for visit in visits() {
            let beacon = scenario.beacons[visit.beaconIndex]
            try write(
                "{\"type\":\"visit\",\"beacon\":\(JSONText.string(beacon.name)),\"id\":\(JSONText.identity(beacon.identity)),"
                    + "\"gateway\":\(JSONText.string(scenario.gateways[visit.gatewayIndex].name)),"
                    + "\"start\":\"\(visit.start)\",\"end\":\"\(visit.end)\",\"duration_s\":\(visit.duration.secondsValue)}\n")
        }
    }

    /// Writes the truth as JSON lines to the file at `path` (replacing it).
    public func write(toFile path: String, includeDistances: Bool = true) throws {
        guard let file = fopen(path, "w") else {
            throw ScenarioError.unreadable(file: path, reason: "cannot create the truth file")
        }
        defer { fclose(file) }
        try writeJSONLines(includeDistances: includeDistances) { text in
            guard fputs(text, file) >= 0 else { throw ScenarioError.unreadable(file: path, reason: "write failed") }
        }
    }
}

/// Minimal JSON text helpers for the line formats the simulator writes.
enum JSONText {
    static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 {
                    out +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func number(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return "\((value * scale).rounded() / scale)"
    }

    /// `{"kind":"ibeacon","uuid":…,"major":…,"minor":…}`; Eddystone adds namespace and instance
    /// (its uuid is namespace + instance, major and minor 0, as Core's `BeaconID` gives them).
    static func identity(_ identity: BeaconIdentity) -> String {
        let id = identity.beaconID
        var text = "{\"kind\":\"\(id.kind.name)\",\"uuid\":\"\(id.uuid.uuidString)\",\"major\":\(id.major),\"minor\":\(id.minor)"
        if id.kind == .eddystoneUID {
            text += ",\"namespace\":\"\(id.eddystoneNamespaceHex)\",\"instance\":\"\(id.eddystoneInstanceHex)\""
        }
        return text + "}"
    }
}
