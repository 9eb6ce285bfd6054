import BeaconCore
import BeaconPipeline
import BeaconSite

/// One line of a site's presence output (`replay --site --presence FILE`): a fused beacon at the
/// end of a hub cycle.
///
/// `{"time":"…","beacon":{…},"name":"Anna's badge","tags":["staff"],"room":"hall"|"unknown"|null,"confidence":0.93,"floor":"upper","position":{"x":…,"y":…,"z":…,"error":…,"radius90":…}|null,"smoothed":{…},"gateways":{"ID":-67.5,…}}`
/// — `name` and `tags` only for a beacon the configuration names (`beacons:`); `room` is `unknown` when the hub cannot tell (the evidence is too weak, or the room's
/// gateways are offline); `confidence` (the room's, 0–1) is there on a site with rooms, `floor`
/// on a site with floors while the room is known; `gateways` holds each gateway's RSSI that
/// counted in the cycle (its mean over the cycle's sightings; a gateway within its grace gives
/// its latest filtered value). `radius90` (in `position`) is the radius the true position lies
/// within nine times out of ten. `smoothed` — `{"time":"…","x":…,"y":…,"z":…,"radius90":…}`, only
/// where the grid filter's smoother has one — is the beacon's position at that earlier `time`
/// (`hub.position.grid.lag` steps ago), decided again with the readings since.
///
/// A hub that calibrates adds a line with its radio model at its first cycle and after each
/// fit: `{"time":"…","calibration":{"verdict":"applied","reason":"…","exponent":1.62,
/// "tagHeight":1.94,"offsets":{"ID":1.2,…},"fixes":300,"anchorMeasurements":0,
/// "heldOut":{"before":5.1,"after":4.8}|null}}` (the model in use; `verdict` and `reason` of the
/// latest fit).
package enum PresenceLine {
    /// Writes the lines of every beacon of `update` (the hub pipeline's cycle, with its `facts`,
    /// their evidence filled) to `write`, naming the beacons `named` names.
    package static func write(
        _ update: RangingUpdate, facts: SiteCycleFacts, named: BeaconDirectory, to write: (String) -> Void
    ) {
        if let calibration = facts.calibration, calibration.fittedAt == update.time || facts.cycles == 1 {
            write(line(calibration, at: update.time, gateways: facts.gatewayIDs) + "\n")
        }
        for (index, beacon) in update.beacons.enumerated() {
            var json = JSONWriter()
            json.object { json in
                json.member("time", update.time.rfc3339String)
                json.key("beacon")
                beacon.id.writeJSON(to: &json)
                if let named = named[beacon.id] {
                    json.member("name", named.name)
                    json.key("tags")
                    json.array { array in for tag in named.tags { array.value(tag) } }
                }
                json.key("room")
                if let room = beacon.room {
                    json.value(room)
                } else if beacon.roomUnknown {
                    json.value("unknown")
                } else {
                    json.null()
                }
                if let confidence = beacon.roomConfidence {
                    json.key("confidence")
                    json.value(confidence, decimals: 3)
                }
                if let floor = beacon.floor { json.member("floor", floor) }
                json.key("position")
                if let p = beacon.position {
                    json.object { json in
                        json.key("x")
                        json.value(p.x, decimals: 2)
                        json.key("y")
                        json.value(p.y, decimals: 2)
                        json.key("z")
                        json.value(p.z, decimals: 2)
                        json.key("error")
                        json.value(p.error, decimals: 2)
                        json.key("radius90")
                        json.value(p.radius90, decimals: 2)
                    }
                } else {
                    json.null()
                }
                if let smoothed = facts.smoothedPosition(ofBeaconAt: index) {
                    json.key("smoothed")
                    json.object { json in
                        json.member("time", smoothed.time.rfc3339String)
                        json.key("x")
                        json.value(smoothed.position.x, decimals: 2)
                        json.key("y")
                        json.value(smoothed.position.y, decimals: 2)
                        json.key("z")
                        json.value(smoothed.position.z, decimals: 2)
                        json.key("radius90")
                        json.value(smoothed.position.radius90, decimals: 2)
                    }
                }
                json.key("gateways")
                json.object { json in
                    facts.forEachEvidence(ofBeaconAt: index) { id, rssi in
                        json.key(id)
                        if let rssi { json.value(rssi, decimals: 1) } else { json.null() }
                    }
                }
            }
            write(json.string + "\n")
        }
    }

    /// The calibration line.
    static func line(_ status: CalibrationStatus, at time: Timestamp, gateways: [String]) -> String {
        var json = JSONWriter()
        json.object { json in
            json.member("time", time.rfc3339String)
            json.key("calibration")
            json.object { json in
                json.member("verdict", status.verdict.rawValue)
                json.member("reason", status.reason)
                json.key("exponent")
                json.value(status.model.pathLossExponent, decimals: 3)
                json.key("tagHeight")
                json.value(status.model.tagHeight, decimals: 2)
                json.key("offsets")
                json.object { json in
                    for (id, offset) in zip(gateways, status.model.receiveOffsets) {
                        json.key(id)
                        json.value(offset, decimals: 2)
                    }
                }
                json.key("gatewayExponents")
                json.object { json in
                    for (g, id) in gateways.enumerated() where g < status.model.exponentOffsets.count {
                        guard status.model.exponentOffsets[g] != 0 else { continue }
                        json.key(id)
                        json.value(status.model.exponent(g), decimals: 3)
                    }
                }
                json.member("fixes", status.fixes)
                json.member("anchorMeasurements", status.anchorMeasurements)
                json.key("heldOut")
                if let before = status.heldOutBefore, let after = status.heldOutAfter {
                    json.object { json in
                        json.key("before")
                        json.value(before, decimals: 2)
                        json.key("after")
                        json.value(after, decimals: 2)
                    }
                } else {
                    json.null()
                }
            }
        }
        return json.string
    }
}
