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
    /// The header that says who asks (`auth:`), if the server wants one.
    public var credentials: RemoteCredentials?
    /// The client certificate to present (`tls:`), if the server asks for one (mutual TLS).
    public var tls: RemoteTLSFiles?
    /// The secret the documents must be signed with (`signature:`), if they are signed.
    public var signature: RemoteSignatureKey?
    /// The environment chosen from `environments:` (its `url` and `auth`), if any.
    public var environment: String?

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

    static let keys = [
        "url", "checkEvery", "timeout", "cache", "stage", "auth", "tls", "signature", "environment", "environments",
    ]

    /// Reads the `alerts: {url, checkEvery, timeout?, cache?, stage?, auth?, environment?,
    /// environments?, tls?, signature?}` mapping. With `environments: {NAME: {url, auth?, tls?,
    /// signature?}, …}`, `environment: NAME` picks one, whose settings replace the top-level ones.
    init(node: ConfigNode) throws(ConfigurationError) {
        try node.checkKeys(allowed: Self.keys)
        var urlNode = node["url"]
        var authNode = node["auth"]
        var tlsNode = node["tls"]
        var signatureNode = node["signature"]
        if let environments = node["environments"] {
            let entries = try environments.mapping()
            let names = entries.map(\.0)
            guard let chosen = node["environment"] else {
                throw environments.error(
                    "environments need 'environment' to say which is in force: one of \(names.joined(separator: ", "))")
            }
            let name = try chosen.string()
            guard let entry = entries.first(where: { $0.0 == name })?.1 else {
                throw chosen.error(
                    "no environment '\(name.prefix(40))' under environments: one of \(names.joined(separator: ", "))")
            }
            try entry.checkKeys(allowed: ["url", "auth", "tls", "signature"], in: "environments.\(name)")
            urlNode = entry["url"] ?? urlNode
            authNode = entry["auth"] ?? authNode
            tlsNode = entry["tls"] ?? tlsNode
            signatureNode = entry["signature"] ?? signatureNode
            environment = name
        } else if let chosen = node["environment"] {
            throw chosen.error(
                "'environment' picks one of 'environments', and there are none: add environments: {\(try chosen.string()): {url: …}}"
            )
        }
        guard let urlNode else { throw node.error("missing 'url' (the alert document's http:// or https:// URL)") }
        url = try urlNode.string()
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw urlNode.error("expected an http:// or https:// URL, found '\(url)'")
        }
        credentials = try authNode.map { n throws(ConfigurationError) in try RemoteCredentials(node: n) }
        tls = try tlsNode.map { n throws(ConfigurationError) in try RemoteTLSFiles(node: n) }
        signature = try signatureNode.map { n throws(ConfigurationError) in try RemoteSignatureKey(node: n) }
        if tls != nil, !url.hasPrefix("https://") {
            throw urlNode.error("a client certificate (tls:) is presented over https:// only; this url is '\(url)'")
        }
        checkEvery = try node["checkEvery"]?.duration() ?? .seconds(12 * 3600)
        guard checkEvery >= .seconds(1) else { throw node.error("checkEvery must be at least 1s") }
        timeout = try node["timeout"]?.duration() ?? .seconds(30)
        cachePath = try node["cache"]?.filePath()
        stage = try node["stage"]?.bool() ?? false
    }
}
