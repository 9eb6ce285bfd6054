import BeaconCore
import SystemPackage

extension GroundTruth {
    /// Writes the truth as JSON lines (schema in `Docs/Simulator.md`): a `header` line, one
    /// `gateway` and one `beacon` line each, `distance` lines (when `includeDistances`) and
    /// `visit` lines; on a site, also the ``SiteTruth``'s `stay` and `position` lines. `write` gets each line with its newline.
    public func writeJSONLines(includeDistances: Bool = true, _ write: (String) throws -> Void) throws {
        try forEachJSONLine(includeDistances: includeDistances) { json in try write(json.string + "\n") }
    }

    /// Writes the truth as JSON lines to the file at `path` (created, or replaced), 64 KiB at a time.
    /// - Throws: ``GroundTruthError/unwritable(file:reason:)`` when the file cannot be created or written.
    public func write(toFile path: String, includeDistances: Bool = true) throws {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .truncate],
                permissions: [.ownerReadWrite, .groupReadWrite, .otherReadWrite])
        } catch {
            throw GroundTruthError.unwritable(file: path, reason: "\(error)")
        }
        var pending: [UInt8] = []
        pending.reserveCapacity((1 << 16) + 1024)
        func writePending() throws {
            do {
                try file.writeAll(pending)
            } catch {
                throw GroundTruthError.unwritable(file: path, reason: "\(error)")
            }
            pending.removeAll(keepingCapacity: true)
        }
        try file.closeAfter {
            try forEachJSONLine(includeDistances: includeDistances) { json in
                pending.append(contentsOf: json.bytes)
                pending.append(UInt8(ascii: "\n"))
                if pending.count >= 1 << 16 { try writePending() }
            }
            try writePending()
        }
    }

    /// Each line of the truth, as a JSON object without its newline.
    func forEachJSONLine(includeDistances: Bool, _ body: (JSONWriter) throws -> Void) throws {
        try body(
            line(type: "header") { json in
                json.member("scenario", scenario.name)
                json.member("start", scenario.start.rfc3339String)
                json.member("end", scenario.end.rfc3339String)
                json.member("sample_interval_s", sampleInterval.secondsValue)
                json.key("visit")
                json.object { json in
                    json.member("radius_m", definition.radius)
                    json.member("min_duration_s", definition.minimumDuration.secondsValue)
                }
            })
        for gateway in scenario.gateways {
            try body(
                line(type: "gateway") { json in
                    json.member("gateway", gateway.name)
                    json.key("position")
                    json.array { json in
                        json.value(gateway.position.x)
                        json.value(gateway.position.y)
                        json.value(gateway.position.z)
                    }
                })
        }
        for beacon in scenario.beacons {
            try body(
                line(type: "beacon") { json in
                    json.member("beacon", beacon.name)
                    json.key("id")
                    beacon.identity.beaconID.writeJSON(to: &json)
                })
        }
        if includeDistances {
            try forEachSample { b, g, time, distance in
                guard let distance else { return }
                try body(
                    line(type: "distance") { json in
                        json.member("time", time.rfc3339String)
                        json.member("beacon", scenario.beacons[b].name)
                        json.member("gateway", scenario.gateways[g].name)
                        json.key("distance_m")
                        json.value(distance, decimals: 3)
                    })
            }
        }
        for visit in visits() {
            let beacon = scenario.beacons[visit.beaconIndex]
            try body(
                line(type: "visit") { json in
                    json.member("beacon", beacon.name)
                    json.key("id")
                    beacon.identity.beaconID.writeJSON(to: &json)
                    json.member("gateway", scenario.gateways[visit.gatewayIndex].name)
                    json.member("start", visit.start.rfc3339String)
                    json.member("end", visit.end.rfc3339String)
                    json.member("duration_s", visit.duration.secondsValue)
                })
        }
        if scenario.isSite {
            try SiteTruth(scenario: scenario, sampleInterval: sampleInterval).forEachJSONLine(body)
        }
    }

    /// One object whose first member is `"type": type`.
    private func line(type: String, _ members: (inout JSONWriter) -> Void) -> JSONWriter {
        var json = JSONWriter()
        json.object { json in
            json.member("type", type)
            members(&json)
        }
        return json
    }
}
