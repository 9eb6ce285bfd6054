import BeaconCore
import BeaconMQTT
import BeaconPipeline
import BeaconSite
import Synchronization

/// A hub's feed: the reports of its buckets from the site's broker, stamped with the hub's clock
/// on arrival (to align each gateway's clock), into the pipeline; and a tick that closes cycles
/// while nothing arrives.
///
/// Reports wait in a bounded queue (10,000) between libmosquitto's network thread and the
/// pipeline; when the pipeline falls that far behind, newer reports are dropped and counted
/// (they describe cycles that would be fused late anyway).
final class SiteSubscription: Sendable {
    let settings: SiteSettings
    /// The buckets this hub takes.
    let buckets: [Int]
    let clientID: String
    private let droppedReports = Mutex(0)
    static let queueCapacity = 10_000

    init(settings: SiteSettings, buckets: [Int], hubIndex: Int) {
        self.settings = settings
        self.buckets = buckets
        clientID = "beacond-hub-\(settings.topics.site)-\(hubIndex)"
    }

    /// `hub:<site>@<broker> buckets …`.
    var name: String {
        let taken =
            buckets.count == settings.topics.bucketCount
            ? "all \(buckets.count)" : buckets.map(String.init).joined(separator: ",")
        return "hub:\(settings.topics.site)@\(settings.host):\(settings.port) (buckets \(taken))"
    }

    /// Reports dropped at the full queue.
    var dropped: Int { droppedReports.withLock { $0 } }

    /// Runs until cancelled.
    func run(runner: PipelineRunner, clock: AnyTimestampClock, tick: Duration) async throws {
        let (stream, continuation) = AsyncStream.makeStream(
            of: GatewayReportMessage.self, bufferingPolicy: .bufferingOldest(Self.queueCapacity))
        let client = try MQTTSiteClient(
            host: settings.host, port: settings.port, options: settings.connection, clientID: clientID,
            subscriptions: buckets.map(settings.topics.subscription(bucket:))
        ) { [self] _, payload in
            if case .dropped = continuation.yield(.encoded(payload, receivedAt: clock.now)) {
                self.droppedReports.withLock { $0 += 1 }
            }
        }
        defer {
            continuation.finish()
            client.close()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    try await clock.sleep(for: tick)
                    try await runner.advance(to: clock.now)
                }
            }
            group.addTask {
                for await message in stream {
                    try await runner.send(reports: [message])
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
