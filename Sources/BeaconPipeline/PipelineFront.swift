import BeaconCore
import BeaconRanging
import BeaconSite

/// A pipeline's front end, chosen at run time: packet ranging (a gateway) or site fusion (a hub).
///
/// An enum rather than a generic parameter: the daemon picks hub or gateway at run time, and
/// the pipeline's users are other modules (no cross-module specialization), so each requirement
/// is one switch over two concrete classes — no existential on the per-packet path.
package enum PipelineFront {
    /// One gateway's packets, decoded and ranged.
    case packets(PacketRanging)
    /// A site hub's gateways' reports, fused.
    case site(SiteFusion)
}

extension PipelineFront: PipelineFrontEnd {
    package var cycleLength: Duration {
        switch self {
        case .packets(let packets): packets.cycleLength
        case .site(let site): site.cycleLength
        }
    }

    package var lateness: Duration {
        switch self {
        case .packets(let packets): packets.lateness
        case .site(let site): site.lateness
        }
    }

    package var cycleClock: Timestamp? {
        switch self {
        case .packets(let packets): packets.cycleClock
        case .site(let site): site.cycleClock
        }
    }

    package var trackedCount: Int {
        switch self {
        case .packets(let packets): packets.trackedCount
        case .site(let site): site.trackedCount
        }
    }

    package var latestUpdate: RangingUpdate {
        switch self {
        case .packets(let packets): packets.latestUpdate
        case .site(let site): site.latestUpdate
        }
    }

    package var regionIDs: [String] {
        switch self {
        case .packets(let packets): packets.regionIDs
        case .site(let site): site.regionIDs
        }
    }

    package func unknownRegionMessage(_ region: String) -> String {
        switch self {
        case .packets(let packets): packets.unknownRegionMessage(region)
        case .site(let site): site.unknownRegionMessage(region)
        }
    }

    package func advance(to now: Timestamp, onUpdate: (RangingUpdate) throws -> Void) rethrows {
        switch self {
        case .packets(let packets): try packets.advance(to: now, onUpdate: onUpdate)
        case .site(let site): try site.advance(to: now, onUpdate: onUpdate)
        }
    }

    package func contribute(to statistics: inout PipelineStatistics) {
        switch self {
        case .packets(let packets): packets.contribute(to: &statistics)
        case .site(let site): site.contribute(to: &statistics)
        }
    }

    package func contribute(to inspection: inout PipelineInspection) {
        switch self {
        case .packets(let packets): packets.contribute(to: &inspection)
        case .site(let site): site.contribute(to: &inspection)
        }
    }
}
