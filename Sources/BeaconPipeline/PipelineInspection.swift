import BeaconAlertEngine
import BeaconCore
import BeaconDevices
import BeaconSite
import BeaconStrategyKit

/// A detailed look at a running pipeline — its beacons, each alert's strategy state and the
/// engine's waiting alerts — taken on request (``PipelineRunner/inspect()``) between two inputs.
///
/// The pipeline does no work for it until it is asked: a status page that nobody watches costs
/// nothing. Taking one copies what it lists (`O(beacons × alerts)`); ask at most about once a
/// second.
public struct PipelineInspection: Sendable {
    /// The pipeline's latest time (a packet's, or an advance), if any.
    public var time: Timestamp?
    /// The end of the latest cycle the strategies have seen.
    public var cycleTime: Timestamp?
    /// The beacons of the latest cycle (seen, or within their missed-scan grace), in tracking
    /// order; on a site hub with their rooms and positions.
    public var beacons: [RangedBeacon] = []
    /// The named beacons (the configuration's `beacons:`): names and tags for the listing.
    public var directory: BeaconDirectory = .empty
    /// On a site hub: each listed beacon's RSSI per gateway, in the order of ``beacons``.
    public var gatewayRSSI: [[GatewayRSSI]] = []
    /// Every alert definition in force with its strategy's beacons.
    public var alerts: [Alert] = []
    /// The engine's pending alerts, earliest first, and the beacons in cooldown.
    public var waiting: [WaitingAlert] = []
    /// A site hub's gateways and rooms (`nil` for one gateway's pipeline).
    public var site: SiteLayout?
    /// A site hub's gateways, online or offline, in layout order (empty for one gateway's pipeline).
    public var gatewayStatuses: [SiteGatewayStatus] = []
    /// What the pipeline has processed so far.
    public var statistics = PipelineStatistics()
    /// Beacons tracked (listed or not: beyond their grace but not yet forgotten).
    public var trackedBeacons = 0
    /// The shadow compared with the live set, if one runs (``AlertPipeline/attachShadow(alerts:registry:comparedAs:)``).
    public var shadow: ShadowComparison?

    /// Where each configured person is (`people:`), in configuration order.
    public var people: [PeoplePlaces.Place] = []

    /// An empty inspection (before the pipeline has run).
    public init() {}

    /// One gateway's evidence of a beacon on a site.
    public struct GatewayRSSI: Hashable, Sendable {
        /// The gateway's id.
        public var gateway: String
        /// Its RSSI of the beacon in the latest cycle (offset applied), if any.
        public var rssi: Double?

        /// Creates an entry.
        public init(gateway: String, rssi: Double?) {
            self.gateway = gateway
            self.rssi = rssi
        }
    }

    /// One alert definition and where its beacons stand.
    public struct Alert: Sendable {
        /// The definition.
        public var definition: PipelineAlert
        /// Its strategy's per-beacon state (empty when the strategy reports none).
        public var statuses: [StrategyBeaconStatus]
        /// Whether the strategy reports its state at all (a plug-in may not).
        public var reportsStatus: Bool
    }

    /// An alert the engine holds back, and why.
    public struct WaitingAlert: Hashable, Sendable {
        /// The alert and beacon.
        public var key: AlertKey
        /// Why it waits.
        public var reason: Reason
        /// When it is due (a pending alert) or when the cooldown ends.
        public var until: Timestamp
        /// When its strategy fired (a pending alert).
        public var firedAt: Timestamp?
        /// Which occurrence is pending (0: the first delivery).
        public var occurrence: Int
        /// The delivered instance a pending reminder belongs to: what acknowledging it takes.
        public var instance: AlertInstance?
        /// The reminder's number (a pending reminder), else 0.
        public var attempt: Int
        /// The due time of a pending first delivery (what cancelling it names), else `nil`.
        public var due: Timestamp?

        /// The instance that cancelling this entry names (`beacond cancel`): a pending reminder's
        /// delivered instance, or the scheduled delivery itself; `nil` for a cooldown or a
        /// suppression.
        public var cancellable: AlertInstance? { instance ?? due.map { AlertInstance(key: key, due: $0) } }

        /// Creates an entry.
        public init(
            key: AlertKey, reason: Reason, until: Timestamp, firedAt: Timestamp? = nil, occurrence: Int = 0,
            instance: AlertInstance? = nil, attempt: Int = 0, due: Timestamp? = nil
        ) {
            self.key = key
            self.reason = reason
            self.until = until
            self.firedAt = firedAt
            self.occurrence = occurrence
            self.instance = instance
            self.attempt = attempt
            self.due = due
        }

        /// Why an alert waits.
        public enum Reason: String, Hashable, Sendable {
            /// The alert's `delay` (or `notBefore`) after its strategy fired.
            case delay
            /// Outside the alert's delivery window: deferred to its next opening.
            case window
            /// A repeat of a delivered alert.
            case `repeat`
            /// Delivered lately: firings are ignored until the cooldown ends.
            case cooldown
            /// Due now: delivered at the next input.
            case due
            /// Delivered and not answered: the next reminder is due at `until`.
            case reminder
            /// Due, held until its `deliverWhen` condition holds (at most until `until`).
            case condition
            /// Dismissed with a suppression: firings are ignored until `until` (the far future: for good).
            case suppressed
        }
    }
}

extension PipelineInspection.WaitingAlert.Reason {
    /// The reason a pending alert waits: a repeat, a window's deferral, a delay, or none.
    init(_ pending: PendingAlert, now: Timestamp?) {
        if pending.attempt > 0 {
            self = .reminder
        } else if pending.heldUntil != nil {
            self = .condition
        } else if pending.occurrence > 0 {
            self = .repeat
        } else if pending.dueAt > pending.seriesStart {
            self = .window
        } else if pending.seriesStart > pending.firedAt, now.map({ pending.dueAt > $0 }) ?? true {
            self = .delay
        } else {
            self = .due
        }
    }
}
