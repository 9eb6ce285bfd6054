/// The kinds of configuration file `beacond check-config` tells apart, by their keys.
public enum ConfigurationFileKind: String, Sendable, CaseIterable {
    /// `source:` (not `hub`): one gateway's daemon, for `beacond run`.
    case gateway = "a gateway's configuration"
    /// `site:` and `gateways:` (with `source: hub` or no `source:`): a site hub, for
    /// `beacond hub` (and `beacond run` with `source: hub`); its rooms count as regions.
    case hub = "a site hub's configuration"
    /// No `source:` and no `gateways:`: the alerts and ranging `beacond replay --config` and
    /// `beacond simulate --config` take.
    case alertsOnly = "an alerts-only file"
    /// An alerts-only file with `hub:` (fusion settings, no gateways): a simulated site's alerts,
    /// whose gateways and rooms are the scenario's.
    case siteAlerts = "a simulated site's alerts file"
    /// `gateways:` each with a `capture:`, and no `site:`: a site's recordings, for
    /// `beacond replay --site` and `beacond evaluate-site`.
    case siteReplay = "a site's recordings"
}
