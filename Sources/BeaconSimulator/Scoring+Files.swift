import BeaconCore
import Foundation

extension Scoring {
    /// Reads alert events (JSON lines) and keeps the `"event": "delivered"` ones. Each needs
    /// `alert` (id), `beacon` (the identity as `BeaconID/writeJSON(to:)` writes it) and `time`
    /// (RFC 3339).
    public static func readAlerts(path: String) throws -> [Alert] {
        var alerts: [Alert] = []
        try forEachObject(path: path) { line, object in
            guard object["event"] as? String == "delivered" else { return }
            guard let id = object["alert"] as? String else {
                throw ScoringError.badLine(file: path, line: line, problem: "missing \"alert\" (the alert id)")
            }
            guard let time = (object["time"] as? String).flatMap(Timestamp.init(rfc3339:)) else {
                throw ScoringError.badLine(file: path, line: line, problem: "missing or invalid \"time\"; expected RFC 3339")
            }
            alerts.append(Alert(id: id, beacon: try beaconID(object["beacon"], file: path, line: line), time: time))
        }
        return alerts
    }

    /// Reads the true visits of a truth file (written by ``GroundTruth``). With a `definition`,
    /// visits are recomputed from the file's distance samples; otherwise its `visit` lines are used.
    public static func readVisits(path: String, definition: VisitDefinition? = nil) throws -> [Visit] {
        var identities: [String: BeaconID] = [:]
        var visits: [Visit] = []
        var sampleInterval = Duration.seconds(1)
        var detectors: [String: VisitDetector] = [:]
        var beaconOfSeries: [String: BeaconID] = [:]
        var sawDistance = false
        try forEachObject(path: path) { line, object in
            switch object["type"] as? String {
            case "header":
                if let seconds = object["sample_interval_s"] as? Double { sampleInterval = .nanoseconds(Int64(seconds * 1e9)) }
            case "beacon":
                guard let name = object["beacon"] as? String else {
                    throw ScoringError.badLine(file: path, line: line, problem: "beacon line without \"beacon\" name")
                }
                identities[name] = try beaconID(object["id"], file: path, line: line)
            case "visit" where definition == nil:
                guard let start = (object["start"] as? String).flatMap(Timestamp.init(rfc3339:)),
                    let end = (object["end"] as? String).flatMap(Timestamp.init(rfc3339:))
                else {
                    throw ScoringError.badLine(file: path, line: line, problem: "visit without RFC 3339 \"start\" and \"end\"")
                }
                visits.append(Visit(beacon: try beaconID(object["id"], file: path, line: line), start: start, end: end))
            case "distance":
                sawDistance = true
                guard let definition else { return }
                guard let name = object["beacon"] as? String, let beacon = identities[name],
                    let gateway = object["gateway"] as? String,
                    let time = (object["time"] as? String).flatMap(Timestamp.init(rfc3339:)),
                    let distance = object["distance_m"] as? Double
                else {
                    throw ScoringError.badLine(
                        file: path, line: line,
                        problem: "distance line needs a declared \"beacon\", \"gateway\", \"time\" and \"distance_m\"")
                }
                let series = name + "\u{0}" + gateway
                beaconOfSeries[series] = beacon
                var detector = detectors[series] ?? VisitDetector(definition: definition, sampleInterval: sampleInterval)
                if let v = detector.add(time: time, distance: distance) {
                    visits.append(Visit(beacon: beacon, start: v.start, end: v.end))
                }
                detectors[series] = detector
            default:
                break
            }
        }
        if definition != nil {
            guard sawDistance else { throw ScoringError.noDistances(file: path) }
            for (series, var detector) in detectors.sorted(by: { $0.key < $1.key }) {
                if let v = detector.finish() { visits.append(Visit(beacon: beaconOfSeries[series]!, start: v.start, end: v.end)) }
            }
        }
        return visits
    }

    /// The identity in member `value` of a line, read by ``BeaconID/init(jsonObject:)``.
    static func beaconID(_ value: Any?, file: String, line: Int) throws(ScoringError) -> BeaconID {
        guard let object = value as? [String: Any] else {
            throw .badLine(file: file, line: line, problem: "missing beacon identity (a JSON object)")
        }
        do {
            return try BeaconID(jsonObject: object)
        } catch {
            throw .badLine(file: file, line: line, problem: error.description)
        }
    }

    static func forEachObject(path: String, _ body: (Int, [String: Any]) throws -> Void) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw ScoringError.unreadable(file: path) }
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                throw ScoringError.badLine(file: path, line: lineNumber, problem: "not a JSON object")
            }
            try body(lineNumber, object)
        }
    }
}
