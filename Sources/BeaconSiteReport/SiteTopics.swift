import BeaconCore

/// The MQTT topics of a site: `<prefix>/<site>/records/<bucket>/<gateway>`.
///
/// A gateway sends each cycle's records in one report per bucket; a beacon always falls in the
/// same bucket (``bucket(of:)``), so a hub that subscribes to some buckets sees every record of
/// its beacons, in order, and another hub the rest — the broker partitions the site, not a
/// protocol of ours. The bucket count is a site-wide constant: every gateway and hub of a site
/// must use the same (changing it means restarting them all).
public struct SiteTopics: Hashable, Sendable {
    /// The first topic levels (default `beacond/site`).
    public var prefix: String
    /// The site's name.
    public var site: String
    /// How many buckets beacons are spread over (1–1024; default 16).
    public var bucketCount: Int

    /// The default number of buckets: room for up to 16 hubs.
    public static let defaultBucketCount = 16
    /// The most buckets a site may have.
    public static let maxBucketCount = 1024

    /// Creates the topic layout of a site.
    public init(prefix: String = "beacond/site", site: String, bucketCount: Int = defaultBucketCount) {
        self.prefix = prefix
        self.site = site
        self.bucketCount = bucketCount
    }

    /// The topic a gateway publishes a bucket's records to.
    public func recordsTopic(bucket: Int, gateway: String) -> String {
        "\(prefix)/\(site)/records/\(bucket)/\(gateway)"
    }

    /// The subscription that receives one bucket from every gateway.
    public func subscription(bucket: Int) -> String { "\(prefix)/\(site)/records/\(bucket)/+" }

    /// The bucket of a beacon: a 64-bit mix (SplitMix64's finaliser) of its identity words,
    /// modulo the bucket count. Stable across processes, machines and versions.
    @inlinable
    public func bucket(of beacon: BeaconID) -> Int {
        Self.bucket(of: beacon, count: bucketCount)
    }

    /// The bucket of a beacon among `count` buckets.
    @inlinable
    public static func bucket(of beacon: BeaconID, count: Int) -> Int {
        Int(mix(beacon) % UInt64(count))
    }

    @inlinable
    static func mix(_ beacon: BeaconID) -> UInt64 {
        var z = beacon.high ^ (beacon.low &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(beacon.tail) << 8 | UInt64(beacon.kind.rawValue))
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Checks the layout's values.
    public func validate() throws(SiteConfigurationError) {
        guard (1...Self.maxBucketCount).contains(bucketCount) else {
            throw .invalid("site.buckets must be from 1 to \(Self.maxBucketCount), not \(bucketCount)")
        }
        guard SiteGateway.isValidID(site) else {
            throw .invalid("site name '\(site)' is not usable: use letters, digits, '-', '_' or '.' (it is a topic level)")
        }
        guard !prefix.isEmpty, !prefix.contains("+"), !prefix.contains("#"), !prefix.hasPrefix("/"), !prefix.hasSuffix("/") else {
            throw .invalid(
                "site.topicPrefix '\(prefix)' is not usable: levels separated by '/', without '+', '#' or a leading or trailing '/'"
            )
        }
    }
}
