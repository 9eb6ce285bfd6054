import BeaconConfiguration
import BeaconCore

/// Where remotely administered alert definitions come from:
///
/// ```yaml
/// alerts: {url: "https://config.example.org/lobby/alerts.yaml", checkEvery: 12h}
/// ```
///
/// The document at `url` has the same `alerts:` list a local file has (YAML or JSON). It is
/// fetched at start and every `checkEvery`, with `If-None-Match` / `If-Modified-Since` so an
/// unchanged document costs a 304; a new one is validated completely before it replaces the
/// alerts in force, and on any error the last good set stays (the log says why).
///
/// With `stage: true`, a new version does not replace the alerts in force: it runs as the
/// daemon's shadow (compared with the live set on `/api/shadow`) until `beacond promote` makes
/// it live — or `beacond shadow --stop` sets it aside.
public struct RemoteAlertsConfiguration: Hashable, Sendable {
    /// The document's URL (`http` or `https`).
    public var url: String
    /// How often to check for a new version.
    public var checkEvery: Duration
    /// How long one request may take.
    public var timeout: Duration
    /// Where the last good document is kept, so that a restart without network still has the
    /// alerts (`nil`: next to the state file when there is one, else nowhere).
    public var cachePath: String?
    /// The named beacons of the local file, which a fetched alert's `match: {tag: …}` selects from.
    public var beacons: BeaconDirectory = .empty
    /// Whether a new version waits as a shadow for `beacond promote` instead of going live at
    /// once (`stage: true`). The first set, with nothing in force yet, goes live.
    public var stage: Bool

    public init(
        url: String, checkEvery: Duration = .seconds(12 * 3600), timeout: Duration = .seconds(30),
        cachePath: String? = nil, stage: Bool = false
    ) {
        self.stage = stage
        self.url = url
        self.checkEvery = checkEvery
        self.timeout = timeout
        self.cachePath = cachePath
    }

    static let keys = ["url", "checkEvery", "timeout", "cache", "stage"]

    /// Reads the `alerts: {url, checkEvery, timeout?, cache?, stage?}` mapping.
    init(node: ConfigNode) throws(ConfigurationError) {
        try node.checkKeys(allowed: Self.keys)
        let urlNode = try node.required("url")
        url = try urlNode.string()
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw urlNode.error("expected an http:// or https:// URL, found '\(url)'")
        }
        checkEvery = try node["checkEvery"]?.duration() ?? .seconds(12 * 3600)
        guard checkEvery >= .seconds(1) else { throw node.error("checkEvery must be at least 1s") }
        timeout = try node["timeout"]?.duration() ?? .seconds(30)
        cachePath = try node["cache"]?.string()
        stage = try node["stage"]?.bool() ?? false
    }
}
