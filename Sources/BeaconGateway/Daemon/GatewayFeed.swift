import BeaconCore
import BeaconPipeline
import BeaconSiteLink

/// Where a daemon's pipeline gets its input: a source of advertisements (a radio, a capture, a
/// simulation), or — for a site hub — its gateways' reports from the broker, or from a simulated
/// site in this process.
enum GatewayFeed: Sendable {
    case advertisements(any AdvertisementSource, isLive: Bool)
    case site(SiteSubscription)
    case reports(any SiteReportSource)

    var name: String {
        switch self {
        case .advertisements(let source, _): source.name
        case .site(let subscription): subscription.name
        case .reports(let source): source.name
        }
    }

    /// Whether the feed is a hub's: gateways' reports, fused.
    var isHub: Bool {
        switch self {
        case .site, .reports: true
        case .advertisements: false
        }
    }

    /// Whether the feed runs on the wall clock (its posted events happen now, not at the
    /// pipeline's own time).
    var isLive: Bool {
        switch self {
        case .advertisements(_, let isLive): isLive
        case .site: true
        case .reports: false
        }
    }
}
