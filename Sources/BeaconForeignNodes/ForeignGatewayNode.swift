import BeaconCore
import BeaconDevices
import BeaconRanging
import BeaconSiteReport

/// A foreign node (ESPresense, OpenMQTTGateway, Theengs) seen by the hub as one of its gateways:
/// its messages translated, its beacon sightings ranged by its own `RangingLoop` exactly as a
/// beacond gateway ranges what it hears, and each closed cycle turned into the report such a
/// gateway publishes (a header and its records).
///
/// Time is given, never read: each message with the hub's receive time (``ingest(_:topic:receivedAt:)``,
/// in time order), and the hub's tick (``advance(to:)``) closes cycles while nothing arrives.
/// The reports are stamped on the hub's clock (the receive times), so the hub needs no clock
/// alignment for them.
///
/// A node is alive while it sends anything it is expected to — a sighting, a device that is not a
/// beacon, a status (not a refused message) — within ``liveness``: every cycle its ranging does
/// not report, it then sends an empty report (the heartbeat of a beacond gateway), so the hub
/// does not take a node that hears no beacon for an offline one. An `offline` status
/// (ESPresense's last will) ends that at once, until the node's next message.
public struct ForeignGatewayNode: Sendable {
    /// The node's gateway id in the site.
    public let gateway: String
    /// Its topics.
    public let endpoint: ForeignNodeEndpoint
    /// How long after its last message the node still counts as alive.
    public let liveness: Duration
    /// What its messages were.
    public private(set) var counts = ForeignNodeCounts()
    /// Its last status (`nil`: none received).
    public private(set) var online: Bool?
    /// New beacons its ranging refused because a cycle brought in `maxNewPerCycle` already (a
    /// flood of identities through the node: a spoofer near it, or anyone who may publish on its
    /// topics).
    public var refusedNewcomers: Int { loop.refusedNewcomers }

    private var loop: RangingLoop
    /// The hub's enrolled devices, whose private addresses this node's messages are resolved
    /// against (`nil`: none enrolled).
    private var resolver: PrivateAddressResolver?
    private let cycle: Duration
    private var lastMessage: Timestamp?
    /// When the node's current stretch of life began (its first message after a silence).
    private var aliveSince: Timestamp?
    /// The latest time the node was given.
    private var latest: Timestamp?
    /// The end of the last cycle reported (by the ranging or a heartbeat).
    private var lastReportedEnd: Timestamp?

    /// Creates a node.
    /// - Parameters:
    ///   - gateway: its id in the site's `gateways:`.
    ///   - endpoint: its kind and topics.
    ///   - ranging: how its sightings are ranged (a beacond gateway's ranging).
    ///   - liveness: how long a silent node still sends heartbeats (default 15 s).
    ///   - devices: the hub's enrolled phones and watches: a message from a private address that
    ///     resolves to one (OpenMQTTGateway, Theengs), or an ESPresense `irk:` id naming its key,
    ///     is a sighting of it.
    public init(
        gateway: String, endpoint: ForeignNodeEndpoint, ranging: RangingConfiguration = RangingConfiguration(),
        liveness: Duration = .seconds(15), devices: [EnrolledDevice] = []
    ) throws(RangingConfigurationError) {
        self.gateway = gateway
        self.endpoint = endpoint
        self.liveness = liveness
        loop = try RangingLoop(configuration: ranging)
        resolver = devices.isEmpty ? nil : PrivateAddressResolver(devices: devices)
        cycle = ranging.cycleLength
    }

    /// Reads one message received at `receivedAt` (the hub's clock; messages in time order — one
    /// stamped before the node's latest time, as two threads may stamp a few microseconds out of
    /// order, is taken at that time). A message under a topic that is not the node's changes
    /// nothing (`outcome` `nil`).
    public mutating func ingest(_ payload: [UInt8], topic: String, receivedAt: Timestamp) -> ForeignNodeStep {
        guard let kind = endpoint.classify(topic) else { return ForeignNodeStep(outcome: nil) }
        let outcome = endpoint.kind.read(payload, kind)
        let receivedAt = max(receivedAt, latest ?? receivedAt)
        var reports = advance(to: receivedAt)
        switch outcome {
        case .failure:
            counts.refused += 1
            return ForeignNodeStep(outcome: outcome, reports: reports)
        case .success(.status(let online)):
            counts.statuses += 1
            self.online = online
        case .success(.ignored):
            counts.ignored += 1
        case .success(.sighting(let id, let rssi, let measuredPower, let address)):
            counts.sightings += 1
            let sighting = BeaconSighting(
                timestamp: receivedAt, id: id, address: address, rssi: rssi, measuredPower: measuredPower)
            for update in loop.ingest(sighting) { reports += report(update) }
        case .success(.privateAddress(let address, let rssi)):
            if let index = resolver?.device(for: address, type: .random, at: receivedAt), let device = resolver?.devices[index] {
                counts.sightings += 1
                let sighting = BeaconSighting(
                    timestamp: receivedAt, id: device.id, address: address, addressType: .random, rssi: rssi,
                    measuredPower: device.measuredPower)
                for update in loop.ingest(sighting) { reports += report(update) }
            } else {
                counts.ignored += 1
            }
        case .success(.resolvedByNode(let key, let rssi, let measuredPower)):
            if let device = enrolledDevice(named: key) {
                counts.sightings += 1
                let sighting = BeaconSighting(
                    timestamp: receivedAt, id: device.id, address: BluetoothAddress(rawValue: 0), rssi: rssi,
                    measuredPower: device.measuredPower ?? measuredPower)
                for update in loop.ingest(sighting) { reports += report(update) }
            } else {
                counts.ignored += 1
            }
        }
        if case .success(.status(online: false)) = outcome {
            lastMessage = nil
        } else {
            // Back after an `offline` or a silence longer than its liveness: alive from now on.
            if lastMessage.map({ receivedAt - $0 > liveness }) ?? true { aliveSince = receivedAt }
            lastMessage = receivedAt
        }
        return ForeignNodeStep(outcome: outcome, reports: reports)
    }

    /// The enrolled device whose key is `key` (in either byte order: the node's settings may hold
    /// it either way).
    private func enrolledDevice(named key: NodeNamedKey) -> EnrolledDevice? {
        resolver?.devices.first { $0.hasKey(key.bytes) }
    }

    /// Closes the cycles that ended by `now` (the hub's clock): their reports, in order, and the
    /// heartbeats of a live node whose ranging reported nothing (at most the last four).
    public mutating func advance(to now: Timestamp) -> [GatewayReportMessage] {
        latest = max(now, latest ?? now)
        var reports: [GatewayReportMessage] = []
        for update in loop.advance(to: now) { reports += report(update) }
        guard let last = lastMessage, let first = aliveSince else { return reports }
        let length = cycle.nanoseconds
        // The last cycle end the node was alive at, and the first one after it came alive.
        let latest = Timestamp(nanosecondsSinceEpoch: (min(now, last + liveness).nanosecondsSinceEpoch / length) * length)
        var time = Timestamp(nanosecondsSinceEpoch: (first.nanosecondsSinceEpoch / length + 1) * length)
        if let reported = lastReportedEnd { time = max(time, reported + cycle) }
        time = max(time, latest - cycle * 3)
        while time <= latest {
            reports.append(.decoded(GatewayReportHeader(gateway: gateway, time: time, cycleLength: cycle, recordCount: 0), []))
            lastReportedEnd = time
            time = time + cycle
        }
        return reports
    }

    /// The reports of a closed cycle: its records, at most `GatewayReportEncoder.recordsPerReport`
    /// a report (as a beacond gateway splits its cycle; the hub refuses a longer report whole).
    private mutating func report(_ update: RangingUpdate) -> [GatewayReportMessage] {
        lastReportedEnd = max(lastReportedEnd ?? update.time, update.time)
        let cycleLength = update.time - update.cycleStart
        let limit = GatewayReportEncoder.recordsPerReport
        return stride(from: 0, to: max(1, update.beacons.count), by: limit).map { start in
            let part = update.beacons[start..<min(start + limit, update.beacons.count)]
            let header = GatewayReportHeader(
                gateway: gateway, time: update.time, cycleLength: cycleLength, recordCount: part.count)
            return .decoded(header, part.map(GatewayRecord.init))
        }
    }
}
