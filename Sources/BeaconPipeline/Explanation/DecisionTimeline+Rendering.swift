import BeaconCore

extension DecisionTimeline {
    /// The timeline as a person reads it: one line per entry (time, what, words; the evidence
    /// beside the strategy's lines), then the verdict.
    /// - Parameters:
    ///   - from: the first time shown (and judged); nil: the start.
    ///   - through: the last; nil: the end.
    ///   - beaconName: the beacon's name, when it has one, for the heading.
    public func text(from: Timestamp? = nil, through: Timestamp? = nil, beaconName: String? = nil) -> String {
        var lines = ["\(alertID) for \(beacon)\(beaconName.map { " (\($0))" } ?? "")"]
        let shown = entries(from: from, through: through)
        if shown.isEmpty { lines.append("  (nothing happened)") }
        for entry in shown {
            var line = "  \(entry.time.timeOfDayString)  \(Self.padded(entry.kind.rawValue, to: 9))  \(entry.text)"
            switch entry.kind {
            case .strategy, .condition, .fired, .reset, .ignored: line += "  [\(entry.evidence.summary)]"
            case .heard, .unheard, .moved, .event: break
            }
            lines.append(line)
        }
        lines.append("verdict: " + verdict(from: from, through: through).summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The timeline as one JSON object: `alert`, `beacon`, `entries` (`time`, `kind`, `text`,
    /// `evidence`), `verdict` (`delivered`, `deliveries`, `obstacle`).
    public func json(from: Timestamp? = nil, through: Timestamp? = nil) -> String {
        var json = JSONWriter()
        let verdict = verdict(from: from, through: through)
        json.object { object in
            object.member("alert", alertID)
            object.member("beacon", beacon.description)
            object.key("entries")
            object.array { array in
                for entry in entries(from: from, through: through) {
                    array.object { line in
                        line.member("time", entry.time.rfc3339String)
                        line.member("kind", entry.kind.rawValue)
                        line.member("text", entry.text)
                        line.key("evidence")
                        line.object { evidence in Self.write(entry.evidence, into: &evidence) }
                    }
                }
            }
            object.key("verdict")
            object.object { object in
                object.member("delivered", verdict.delivered)
                object.key("deliveries")
                object.array { array in for time in verdict.deliveries { array.value(time.rfc3339String) } }
                object.member("obstacle", verdict.obstacle)
                object.member("summary", verdict.summary)
            }
        }
        return json.string
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private static func write(_ evidence: DecisionEvidence, into object: inout JSONWriter) {
        object.member("inRanging", evidence.inRanging)
        object.member("heard", evidence.heard)
        object.member("rssi", evidence.filteredRSSI.map { ($0 * 10).rounded() / 10 })
        object.member("distance", evidence.distance.map { ($0 * 100).rounded() / 100 })
        object.member("proximity", evidence.proximity.name)
        object.member("room", evidence.roomUnknown ? "unknown" : evidence.room)
        object.member("roomConfidence", evidence.roomConfidence.map { ($0 * 100).rounded() / 100 })
        if evidence.gateways > 0 { object.member("gateways", evidence.gateways) }
    }
}
