import BeaconCore

/// Which of a site's gateways are alive, as a stage of the hub: when each last reported, whether
/// it is online or offline (no report for `SiteFusionConfiguration.gatewayOfflineAfter`), since
/// when, and which changed in the latest cycle. A pure function of the reports' times and the
/// cycles' ends (hub time, ns): no clocks, beacons or events (`GatewayLivenessTests`).
struct GatewayLiveness {
    /// Each gateway's latest report (ns); `.min` before any.
    private(set) var lastReport: [Int64]
    /// Each gateway's state at the latest ``update(at:)``: online (reporting), or offline.
    private(set) var online: [Bool]
    /// Whether each gateway reported in the two cycles before the latest ``update(at:)``
    /// (``isReporting(_:at:)``): its silence about a beacon then means it did not hear it.
    private(set) var reporting: [Bool]
    /// When each gateway's state began (ns).
    private(set) var since: [Int64]
    /// The gateways whose state changed at the latest ``update(at:)``.
    private(set) var changed: [Int] = []
    /// The time of the first report (ns; `.min` before it): a gateway that never reported is
    /// offline once the limit has passed since.
    private(set) var start: Int64 = .min
    /// How long without a report makes a gateway offline (ns).
    let offlineAfter: Int64
    /// The hub's cycle (ns): a gateway is *reporting* while it reported in the last two.
    let cycle: Int64

    /// `count` gateways, online until their silence says otherwise.
    init(count: Int, offlineAfter: Int64, cycle: Int64) {
        lastReport = Array(repeating: .min, count: count)
        online = Array(repeating: true, count: count)
        reporting = Array(repeating: false, count: count)
        since = Array(repeating: 0, count: count)
        changed.reserveCapacity(count)
        self.offlineAfter = offlineAfter
        self.cycle = cycle
    }

    /// Notes a report from gateway `g` at `t` (ns).
    @inline(__always)
    mutating func noteReport(gateway g: Int, at t: Int64) {
        if start == .min { start = t }
        if t > lastReport[g] { lastReport[g] = t }
    }

    /// Marks gateways offline (no report within the limit before `end`) or online again (a report
    /// since); the gateways that changed are in ``changed``, and which report in ``reporting``
    /// (before any report of any gateway, none). Returns how many more are offline than before
    /// (negative when more came back).
    mutating func update(at end: Int64) -> Int {
        changed.removeAll(keepingCapacity: true)
        guard start != .min else { return 0 }
        var wentOffline = 0
        for g in online.indices {
            reporting[g] = isReporting(g, at: end)
            let now = isOnline(g, at: end)
            guard now != online[g] else { continue }
            online[g] = now
            // Offline from its last report on (plus the limit); online from the report that woke it.
            since[g] = now ? lastReport[g] : (lastReport[g] == .min ? start : lastReport[g]) &+ offlineAfter
            changed.append(g)
            wentOffline += now ? -1 : 1
        }
        return wentOffline
    }

    /// Whether gateway `g` has reported within the limit before `end` (the first report of any
    /// gateway stands for a report of one that never reported).
    @inline(__always)
    func isOnline(_ g: Int, at end: Int64) -> Bool {
        end &- (lastReport[g] == .min ? start : lastReport[g]) < offlineAfter
    }

    /// Whether ``update(at:)`` would change a gateway's state at `end`.
    func changes(at end: Int64) -> Bool {
        guard start != .min else { return false }
        return online.indices.contains { isOnline($0, at: end) != online[$0] }
    }

    /// Whether gateway `g` reported in the last two cycles before `end` (the window of a room's
    /// score): its silence about a beacon then means it did not hear it.
    @inline(__always)
    func isReporting(_ g: Int, at end: Int64) -> Bool {
        lastReport[g] != .min && end &- lastReport[g] < 2 &* cycle
    }

    /// What the silence of `gateways` (a room's) means at the latest ``update(at:)``: one of them
    /// reports, none does and not all are offline yet, or all are offline. A room without
    /// gateways (one only outlined) is `.quiet`: none can speak of it, and it is never offline.
    func silence(of gateways: [Int]) -> RoomSilence {
        var offline = !gateways.isEmpty
        for g in gateways {
            if reporting[g] { return .reporting }
            if online[g] { offline = false }
        }
        return offline ? .offline : .quiet
    }

    /// Gateway `g`'s status, under its `id`.
    func status(of g: Int, id: String) -> SiteGatewayStatus {
        SiteGatewayStatus(
            gateway: id, online: online[g],
            lastReport: lastReport[g] == .min ? nil : Timestamp(nanosecondsSinceEpoch: lastReport[g]),
            since: Timestamp(nanosecondsSinceEpoch: since[g]))
    }
}
