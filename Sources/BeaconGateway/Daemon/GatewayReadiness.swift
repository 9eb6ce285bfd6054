import BeaconCore
import BeaconDaemonConfiguration
import Logging

/// The parts a daemon waits for before it says it is ready, and what it then says.
///
/// | part | met when | who |
/// |---|---|---|
/// | ``source`` | the source starts (after a remote alert set's first check) | every daemon |
/// | ``siteBroker`` | the site's broker accepted the connection | a gateway of a site (or an ESPresense stand-in) |
/// | ``siteSubscription`` | the broker acknowledged every bucket's subscription | a hub |
/// | ``takeoverElection`` | the election settled: active or standby | a hub with `hub.takeover` |
///
/// Once all are met the daemon logs `ready: PARTS` (a notice) and sends systemd `READY=1` with
/// the same status line (``SystemdNotifier``; the packaged unit is `Type=notify`). A simulation
/// with `startFile:` is ready before its scenario starts: that is the moment to release it.
enum GatewayReadiness {
    static let source = "source running"
    static let siteBroker = "site broker connected"
    static let siteSubscription = "site reports subscribed"
    static let takeoverElection = "takeover role known"

    /// The readiness of a daemon of `configuration` fed by `feed`.
    static func make(_ configuration: GatewayConfiguration, feed: GatewayFeed, logger: Logger) -> Readiness {
        var parts = [source]
        switch feed {
        case .site:
            parts.append(siteSubscription)
            if configuration.hub?.takeover != nil { parts.append(takeoverElection) }
        case .advertisements:
            if configuration.site != nil { parts.append(siteBroker) }
        case .reports:
            break
        }
        let notifier = SystemdNotifier()
        notifier.status("starting: waiting for " + parts.joined(separator: ", "))
        return Readiness(parts: parts) { parts in
            let status = "ready: " + parts.joined(separator: ", ")
            logger.notice("\(status)")
            notifier.ready(status: status)
        }
    }
}
