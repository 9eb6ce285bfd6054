import BeaconCore
import BeaconSiteReport

/// A gateway's reports of one cycle, bucket by bucket: its records, each in its bucket's report
/// (several when a bucket holds more than `GatewayReportEncoder.recordsPerReport`), and an empty
/// report — the header alone, zero records — to every bucket it has no record for. So every
/// hub, whichever buckets it subscribes to, hears from every live gateway every cycle (its
/// heartbeat): an idle gateway, or one whose beacons all fall in other hubs' buckets, is not
/// taken for an offline one.
///
/// The reports are encoded in reused buffers (nothing is allocated per cycle once they have
/// grown) and lent to the caller one at a time.
package struct SiteCycleReports: Sendable {
    /// The topics: how many buckets, and which bucket a beacon belongs to.
    package let topics: SiteTopics
    private var encoders: [GatewayReportEncoder]
    /// Whether each bucket got a report in the cycle being encoded.
    private var reported: [Bool]
    /// The end of the latest cycle reported (`nil` before any).
    package private(set) var lastCycleEnd: Timestamp?

    /// Creates the reports of `gateway` in `format` for a site of `topics`.
    package init(gateway: String, format: GatewayReportFormat, topics: SiteTopics) {
        self.topics = topics
        encoders = (0..<topics.bucketCount).map { _ in GatewayReportEncoder(gateway: gateway, format: format) }
        reported = Array(repeating: false, count: topics.bucketCount)
    }

    /// Encodes the cycle of `update` — every tracked beacon, those within their missed-scan grace
    /// included, flagged as unseen — and calls `send` with each report: a bucket's records as
    /// they fill a report, then an empty report to each bucket without a record.
    package mutating func encode(_ update: RangingUpdate, send: (_ bucket: Int, _ report: [UInt8]) -> Void) {
        let cycleLength = update.time - update.cycleStart
        for bucket in encoders.indices {
            encoders[bucket].begin(time: update.time, cycleLength: cycleLength)
            reported[bucket] = false
        }
        for beacon in update.beacons {
            let bucket = topics.bucket(of: beacon.id)
            if encoders[bucket].isFull { finish(bucket, time: update.time, cycleLength: cycleLength, send: send) }
            encoders[bucket].append(GatewayRecord(beacon))
        }
        // What is left: each bucket's last records, and the empty report of a bucket without any.
        for bucket in encoders.indices where encoders[bucket].recordCount > 0 || !reported[bucket] {
            finish(bucket, time: update.time, cycleLength: cycleLength, send: send)
        }
        lastCycleEnd = update.time
    }

    /// Sends the empty reports of a cycle that ended at `end` and was not reported (the gateway
    /// tracks nothing, so its ranging closes no cycle): the heartbeat, one report per bucket.
    /// Nothing when that cycle, or a later one, was reported already.
    package mutating func heartbeat(
        cycleEnd end: Timestamp, cycleLength: Duration, send: (_ bucket: Int, _ report: [UInt8]) -> Void
    ) {
        if let last = lastCycleEnd, last >= end { return }
        for bucket in encoders.indices {
            encoders[bucket].begin(time: end, cycleLength: cycleLength)
            finish(bucket, time: end, cycleLength: cycleLength, send: send)
        }
        lastCycleEnd = end
    }

    private mutating func finish(
        _ bucket: Int, time: Timestamp, cycleLength: Duration, send: (_ bucket: Int, _ report: [UInt8]) -> Void
    ) {
        encoders[bucket].finish()
        send(bucket, encoders[bucket].bytes)
        reported[bucket] = true
        encoders[bucket].begin(time: time, cycleLength: cycleLength)
    }
}
