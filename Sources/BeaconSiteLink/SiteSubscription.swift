import BeaconCore
import BeaconDaemonConfiguration
import BeaconForeignNodes
import BeaconMQTT
import BeaconPipeline
import BeaconSite
import BeaconSiteReport
import Logging
import Synchronization

/// A hub's feed: the reports of its buckets from the site's broker, stamped with the hub's clock
/// on arrival (to align each gateway's clock), into the pipeline; and a tick that closes cycles
/// while nothing arrives.
///
/// libmosquitto's network thread only stamps each message with the hub's clock and queues it;
/// one task, the one that feeds the pipeline, takes the queue in arrival order (``plan(_:)``):
/// it reads each message, ranges the foreign nodes' messages, and ends the cycles at each tick,
/// so nothing of the hub's state is touched on the network thread. Messages wait in a bounded
/// queue (10,000) between the two; when the pipeline falls that far behind, newer messages are
/// dropped, counted (``dropped``, the metric's `queue_full`) and logged (they describe cycles
/// that would be fused late anyway). A message under a topic that is not one of this hub's
/// buckets of the site is refused. Losing and regaining the broker is logged.
///
/// Foreign nodes (ESPresense, OpenMQTTGateway, Theengs; `kind:` in `gateways:`) publish to the
/// same broker: their topics are subscribed to as well, each message translated and ranged by
/// its node (``ForeignGatewayNode``) at its arrival time, and the nodes' per-cycle reports — on
/// arrival, and on the tick while nothing arrives — go to the pipeline with the beacond
/// gateways' reports, holding only the records of this hub's buckets. A message a node's kind
/// does not send is refused there, counted and logged with the others.
package final class SiteSubscription: Sendable {
    let settings: SiteSettings
    /// The buckets this hub takes.
    let buckets: [Int]
    let clientID: String
    private let taken: Set<Int>
    private let droppedReports = Mutex(0)
    /// The broker connection as last reported (`nil` before the first word of it).
    private let connectionState = Mutex<(connected: Bool, detail: String)?>(nil)
    static let queueCapacity = 10_000

    private let logger: Logger
    /// The foreign nodes, ranging what they publish: used by the feeding task alone (the lock is
    /// never contended; it makes the class `Sendable`).
    private let nodes: Mutex<[ForeignGatewayNode]>
    /// Per foreign node: its refused newcomers when last logged, and when.
    private let floodNotes = Mutex<[String: (refused: Int, at: Timestamp)]>([:])
    private let foreignSubscriptions: [String]

    /// - Parameter takeoverID: this hub's `hub.takeover.id`: hubs of one share need distinct
    ///   client ids (a broker drops the older of two connections with the same id).
    ///   - foreignNodes: the site's foreign nodes (`HubSettings.makeForeignNodes()`).
    package init(
        settings: SiteSettings, buckets: [Int], hubIndex: Int, takeoverID: String? = nil,
        foreignNodes: [ForeignGatewayNode] = [], logger: Logger = Logger(label: "beacond")
    ) {
        self.logger = logger
        nodes = Mutex(foreignNodes)
        foreignSubscriptions = foreignNodes.flatMap(\.endpoint.subscriptions)
        self.settings = settings
        self.buckets = buckets
        taken = Set(buckets)
        clientID = "beacond-hub-\(settings.topics.site)-\(hubIndex)" + (takeoverID.map { "-\($0)" } ?? "")
    }

    /// `hub:<site>@<broker> buckets …`.
    package var name: String {
        let taken =
            buckets.count == settings.topics.bucketCount
            ? "all \(buckets.count)" : buckets.map(String.init).joined(separator: ",")
        return "hub:\(settings.topics.site)@\(settings.host):\(settings.port) (buckets \(taken))"
    }

    /// Reports dropped at the full queue.
    package var dropped: Int { droppedReports.withLock { $0 } }

    /// The broker (`host:port`).
    package var broker: String { "\(settings.host):\(settings.port)" }

    /// The broker connection as last reported: connected or not, and what was said of it
    /// (`cannot reach the broker … (Connection refused)`); `nil` before the first attempt ended.
    package var connection: (connected: Bool, detail: String)? { connectionState.withLock { $0 } }

    /// What a received message is to the fusion: a report with its topic's origin, or a refusal
    /// when the topic is not one of this hub's buckets of the site.
    func message(topic: String, payload: [UInt8], receivedAt: Timestamp) -> GatewayReportMessage {
        guard let origin = settings.topics.origin(ofRecordsTopic: topic) else {
            return .refused(
                ReportRefusal(
                    .wrongTopic, "topic '\(topic.prefix(200))' is not a records topic of site '\(settings.topics.site)'"))
        }
        guard taken.contains(origin.bucket) else {
            return .refused(
                ReportRefusal(.wrongBucket, gateway: origin.gateway, "bucket \(origin.bucket) is not one this hub takes"))
        }
        return .encoded(payload, receivedAt: receivedAt, origin: origin)
    }

    /// What a message under a foreign node's topic amounts to: the reports of the cycles its
    /// arrival closed and, when the node's kind does not send such a message, its refusal; `nil`
    /// when the topic is no foreign node's.
    package func foreignMessages(topic: String, payload: [UInt8], receivedAt: Timestamp) -> [GatewayReportMessage]? {
        nodes.withLock { nodes -> [GatewayReportMessage]? in
            for index in nodes.indices {
                let step = nodes[index].ingest(payload, topic: topic, receivedAt: receivedAt)
                guard step.outcome != nil else { continue }
                var messages = step.reports.map(onlyTakenBuckets)
                if let refusal = step.refusal(gateway: nodes[index].gateway, kind: nodes[index].endpoint.kind) {
                    messages.append(.refused(refusal))
                }
                return messages
            }
            return nil
        }
    }

    /// What arrives, in the order it arrives: a message stamped with the hub's clock, or a tick.
    package enum Arrival: Sendable {
        case message(topic: String, payload: [UInt8], receivedAt: Timestamp)
        case tick(Timestamp)
    }

    /// What the feeding task does with arrivals: hand reports to the pipeline, or end its cycles
    /// up to a tick's time.
    package enum FeedAction: Sendable {
        case send([GatewayReportMessage])
        case advance(to: Timestamp)
    }

    /// Takes `arrivals` in order: each message read (a foreign node's ranged), each tick the
    /// foreign nodes' cycles it ended, then an advance of the pipeline to it. Reports before a
    /// tick are sent before its advance.
    package func plan(_ arrivals: [Arrival]) -> [FeedAction] {
        var actions: [FeedAction] = []
        var reports: [GatewayReportMessage] = []
        for arrival in arrivals {
            switch arrival {
            case .message(let topic, let payload, let receivedAt):
                reports +=
                    foreignMessages(topic: topic, payload: payload, receivedAt: receivedAt)
                    ?? [message(topic: topic, payload: payload, receivedAt: receivedAt)]
            case .tick(let now):
                // The nodes' closed cycles go behind what their messages closed.
                reports += foreignReports(at: now)
                logFloodedNodes(at: now)
                if !reports.isEmpty { actions.append(.send(reports)) }
                reports.removeAll()
                actions.append(.advance(to: now))
            }
        }
        if !reports.isEmpty { actions.append(.send(reports)) }
        return actions
    }

    /// The foreign nodes' reports of the cycles ended by `now`.
    package func foreignReports(at now: Timestamp) -> [GatewayReportMessage] {
        nodes.withLock { nodes in
            nodes.indices.flatMap { nodes[$0].advance(to: now) }.map(onlyTakenBuckets)
        }
    }

    /// Logs each foreign node whose ranging refused new beacons since its last such line, at
    /// most once a minute per node: a flood of identities through it.
    private func logFloodedNodes(at now: Timestamp) {
        let flooded: [(String, Int)] = nodes.withLock { nodes in
            nodes.compactMap { node in
                let refused = node.refusedNewcomers
                let noted = floodNotes.withLock { $0[node.gateway] }
                guard refused > (noted?.refused ?? 0), noted.map({ now - $0.at >= .seconds(60) }) ?? true else { return nil }
                floodNotes.withLock { $0[node.gateway] = (refused, now) }
                return (node.gateway, refused - (noted?.refused ?? 0))
            }
        }
        for (gateway, refused) in flooded {
            logger.warning(
                "site: foreign node \(gateway) brought in more new beacons a cycle than ranging.maxNewPerCycle: \(refused) refused since the last line (the loudest kept; a flood of identities near the node or on its topics?)"
            )
        }
    }

    /// One line per foreign node: what its messages were (on the way out, next to the hub's summary).
    private func logForeignNodes() {
        for node in nodes.withLock({ $0 }) {
            let counts = node.counts
            logger.notice(
                "site: \(node.endpoint.kind.rawValue) node \(node.gateway) (\(node.endpoint.subscriptions.joined(separator: " "))): \(counts.sightings) beacon sightings, \(counts.ignored) other devices, \(counts.refused) refused, \(counts.statuses) statuses, \(node.refusedNewcomers) new beacons over the cycle's cap"
            )
        }
    }

    /// A node's report with the records of this hub's buckets alone (another hub of the site
    /// fuses the rest, as with the beacond gateways' per-bucket reports).
    private func onlyTakenBuckets(_ message: GatewayReportMessage) -> GatewayReportMessage {
        guard case .decoded(var header, let records) = message, taken.count < settings.topics.bucketCount else {
            return message
        }
        let kept = records.filter { taken.contains(settings.topics.bucket(of: $0.beacon)) }
        header.recordCount = kept.count
        return .decoded(header, kept)
    }

    /// Runs until cancelled.
    ///
    /// Reports are queued as they come (up to ``queueCapacity``; beyond, dropped and counted) and
    /// handed to the pipeline in batches — everything that came while the pipeline took the last
    /// batch — so a burst (sixteen buckets' heartbeats from every gateway at a cycle's end) is one
    /// pipeline input, one store transaction, not one per message.
    /// - Parameter subscribed: called each time the broker has acknowledged every subscription
    ///   of a connection (the daemon's readiness), on libmosquitto's network thread.
    package func run(
        runner: PipelineRunner, clock: AnyTimestampClock, tick: Duration, subscribed: @escaping @Sendable () -> Void = {}
    ) async throws {
        let queue = ReportQueue()
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let refusals = ReportRefusalLog(logger: logger, clock: clock)
        let logger = logger
        let buckets = buckets.count
        let client = try MQTTSiteClient(
            host: settings.host, port: settings.port, options: settings.connection, clientID: clientID,
            subscriptions: self.buckets.map(settings.topics.subscription(bucket:)) + foreignSubscriptions,
            onConnection: { connected, detail in
                self.connectionState.withLock { $0 = (connected, detail) }
                if connected {
                    logger.notice("site: \(detail), subscribed to \(buckets) bucket(s)")
                } else {
                    logger.warning("site: \(detail) — the gateways' reports are missed until it is back")
                }
            }
        ) { topic, payload in
            // The network thread stamps and queues; the feeding task does the rest.
            let arrival = Arrival.message(topic: topic, payload: payload, receivedAt: clock.now)
            let taken = queue.items.withLock { queued in
                guard queued.count < Self.queueCapacity else { return false }
                queued.append(arrival)
                return true
            }
            continuation.yield()
            if !taken {
                self.droppedReports.withLock { $0 += 1 }
                refusals.record(
                    ReportRefusal(
                        .queueFull, "the hub's queue of \(Self.queueCapacity) reports is full: the hub cannot keep up"))
            }
        } onSubscribed: {
            subscribed()
        }
        defer {
            continuation.finish()
            client.close()
            logForeignNodes()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    try await clock.sleep(for: tick)
                    // Behind the messages before it, even in a full queue: a tick is never dropped.
                    queue.items.withLock { $0.append(.tick(clock.now)) }
                    continuation.yield()
                }
            }
            group.addTask {
                for await _ in signals {
                    let batch = queue.items.withLock { queued in
                        defer { queued.removeAll(keepingCapacity: true) }
                        return queued
                    }
                    for action in self.plan(batch) {
                        switch action {
                        case .send(let reports): try await runner.send(reports: reports)
                        case .advance(let time): try await runner.advance(to: time)
                        }
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

/// What a hub has received and the pipeline not yet taken (shared by the MQTT client's thread
/// and the task that feeds the pipeline).
private final class ReportQueue: Sendable {
    let items = Mutex<[SiteSubscription.Arrival]>([])
}
