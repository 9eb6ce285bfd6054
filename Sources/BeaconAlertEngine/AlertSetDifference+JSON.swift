import BeaconCore

extension AlertSetDifference {
    /// Writes the counts as one JSON object, `{ALERT: {same, earlier, later, added, dropped}}`
    /// (what `beacond diff-alerts --json` and `GET /api/shadow` call `alerts`).
    public func writeCounts(to json: inout JSONWriter) {
        json.object { alerts in
            for (alertID, counts) in self.counts {
                alerts.key(alertID)
                alerts.object { row in
                    for kind in Change.Kind.allCases { row.member(kind.rawValue, counts[kind] ?? 0) }
                }
            }
        }
    }

    /// Writes `changes` as one JSON array of `{alert, beacon, change, old, new, shift}` (times
    /// RFC 3339, the shift in seconds; absent when not known).
    public static func writeChanges(_ changes: some Sequence<Change>, to json: inout JSONWriter) {
        json.array { array in
            for change in changes {
                array.object { row in
                    row.member("alert", change.alertID)
                    row.member("beacon", "\(change.beacon)")
                    row.member("change", change.kind.rawValue)
                    row.member("old", change.old?.rfc3339String)
                    row.member("new", change.new?.rfc3339String)
                    row.member("shift", change.shift?.secondsValue)
                }
            }
        }
    }
}
