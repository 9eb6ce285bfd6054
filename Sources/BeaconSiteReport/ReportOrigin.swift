import BeaconCore

/// Where a report came from, as its MQTT topic says (`<prefix>/<site>/records/<bucket>/<gateway>`):
/// what a hub checks the report's own gateway id and records against.
public struct ReportOrigin: Hashable, Sendable {
    /// The gateway id of the topic's last level.
    public var gateway: String
    /// The topic's bucket.
    public var bucket: Int
    /// The site's bucket count (to place each record's beacon in its bucket).
    public var bucketCount: Int

    /// Creates an origin.
    public init(gateway: String, bucket: Int, bucketCount: Int) {
        self.gateway = gateway
        self.bucket = bucket
        self.bucketCount = bucketCount
    }
}

extension SiteTopics {
    /// The origin a records topic of this site names; `nil` for any other topic (another site, a
    /// bucket out of range, a gateway level that is not a gateway id).
    public func origin(ofRecordsTopic topic: String) -> ReportOrigin? {
        let head = "\(prefix)/\(site)/records/"
        guard topic.hasPrefix(head) else { return nil }
        let rest = topic.utf8.dropFirst(head.utf8.count)
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let bucketText = Substring(rest[rest.startIndex..<slash])
        let gateway = String(Substring(rest[rest.index(after: slash)...]))
        guard (1...4).contains(bucketText.count), bucketText.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }),
            let bucket = Int(bucketText),
            (0..<bucketCount).contains(bucket), SiteGateway.isValidID(gateway)
        else { return nil }
        return ReportOrigin(gateway: gateway, bucket: bucket, bucketCount: bucketCount)
    }
}
