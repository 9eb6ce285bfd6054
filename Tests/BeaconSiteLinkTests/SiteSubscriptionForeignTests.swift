import BeaconCore
import BeaconDaemonConfiguration
import BeaconForeignNodes
import BeaconSiteLink
import BeaconSiteReport
import Testing

/// A hub's subscription to foreign nodes: their messages become the nodes' reports, refusals
/// become refused messages, and a hub of a partition keeps the records of its own buckets only.
@Suite("A hub's subscription to foreign nodes")
struct SiteSubscriptionForeignTests {
    static let topics = SiteTopics(site: "home", bucketCount: 4)
    static let t0 = Timestamp(seconds: 1_700_000_000)

    /// Two tags of different buckets (by the site's mix), heard by the office node.
    static let tags: [BeaconID] = {
        let candidates = (0..<64).map {
            BeaconID.iBeacon(uuidHigh: 0xFDA5_0693_A4E2_4FB1, uuidLow: 0xAFCF_C6EB_0764_7825, major: 100, minor: UInt16($0))
        }
        let first = candidates[0]
        let other = candidates.first { topics.bucket(of: $0) != topics.bucket(of: first) }!
        return [first, other]
    }()

    static func subscription(buckets: [Int]) throws -> SiteSubscription {
        let node = try ForeignGatewayNode(gateway: "esp-office", endpoint: ForeignNodeEndpoint(kind: .espresense, name: "office"))
        return SiteSubscription(
            settings: SiteSettings(topics: topics, gateway: "hub"), buckets: buckets, hubIndex: 0, foreignNodes: [node])
    }

    static func records(_ messages: [GatewayReportMessage]) -> [GatewayRecord] {
        messages.flatMap { message -> [GatewayRecord] in
            guard case .decoded(_, let records) = message else { return [] }
            return records
        }
    }

    /// Feeds both tags for two seconds; returns what came out.
    static func feed(_ subscription: SiteSubscription) -> [GatewayReportMessage] {
        var out: [GatewayReportMessage] = []
        for tenth in 0..<20 {
            for tag in tags {
                let (topic, payload) = ESPresenseMessage.device(
                    tag, rssi: -60, measuredPower: -59, address: BluetoothAddress(rawValue: 1), room: "office")
                out +=
                    subscription.foreignMessages(topic: topic, payload: payload, receivedAt: t0 + .milliseconds(100 * tenth))
                    ?? []
            }
        }
        return out + subscription.foreignReports(at: t0 + .seconds(2))
    }

    @Test("a hub of every bucket gets both tags' records; a hub of one tag's bucket gets that tag's alone, and the heartbeat")
    func partition() throws {
        let all = Self.records(Self.feed(try Self.subscription(buckets: [0, 1, 2, 3])))
        #expect(Set(all.map(\.beacon)) == Set(Self.tags))
        let own = Self.topics.bucket(of: Self.tags[0])
        let part = Self.feed(try Self.subscription(buckets: [own]))
        #expect(Set(Self.records(part).map(\.beacon)) == [Self.tags[0]])
        #expect(part.count == 2) // the cycles ending at +1 s and +2 s, each a report
    }

    @Test("a refused message is queued as a refusal under the node's id; a topic of no node is not the nodes'")
    func refusals() throws {
        let subscription = try Self.subscription(buckets: [0, 1, 2, 3])
        let out = subscription.foreignMessages(
            topic: "espresense/devices/x/office", payload: Array("garbage".utf8), receivedAt: Self.t0)
        guard case .refused(let refusal)? = out?.last else {
            Issue.record("not refused: \(String(describing: out))")
            return
        }
        #expect(refusal.reason == .malformed)
        #expect(refusal.gateway == "esp-office")
        #expect(subscription.foreignMessages(topic: "espresense/devices/x/kitchen", payload: [], receivedAt: Self.t0) == nil)
        #expect(
            subscription.foreignMessages(
                topic: Self.topics.recordsTopic(bucket: 0, gateway: "pi"), payload: [], receivedAt: Self.t0) == nil)
    }

    @Test(
        "the feeding task takes arrivals in order: a node's cycle ends at the tick, its report is sent before the advance, a beacond report and a refusal keep their place"
    )
    func planInArrivalOrder() throws {
        let subscription = try Self.subscription(buckets: [0, 1, 2, 3])
        var arrivals: [SiteSubscription.Arrival] = (0..<10).map { tenth in
            let (topic, payload) = ESPresenseMessage.device(
                Self.tags[0], rssi: -60, measuredPower: -59, address: BluetoothAddress(rawValue: 1), room: "office")
            return .message(topic: topic, payload: payload, receivedAt: Self.t0 + .milliseconds(100 * tenth))
        }
        arrivals.append(.tick(Self.t0 + .seconds(1)))
        // A beacond gateway's report (bytes the pipeline decodes), then a message under no records topic.
        let gatewayTopic = Self.topics.recordsTopic(bucket: 0, gateway: "pi")
        arrivals.append(.message(topic: gatewayTopic, payload: [1, 2, 3], receivedAt: Self.t0 + .milliseconds(1_500)))
        arrivals.append(.message(topic: "elsewhere/x", payload: [], receivedAt: Self.t0 + .milliseconds(1_600)))
        arrivals.append(.tick(Self.t0 + .seconds(2)))
        let actions = subscription.plan(arrivals)
        #expect(actions.count == 4, "\(actions)")
        guard actions.count == 4,
            case .send(let first) = actions[0], case .advance(let firstTick) = actions[1],
            case .send(let second) = actions[2], case .advance(let secondTick) = actions[3]
        else { return }
        // The tag's cycle ending at +1 s, ranged by the node, before the pipeline's advance to +1 s.
        #expect(first.count == 1)
        #expect(Self.records(first).map(\.beacon) == [Self.tags[0]])
        #expect(firstTick == Self.t0 + .seconds(1))
        // Then, in arrival order: the gateway's report as it came, the refusal, and the node's
        // report of the cycle ending at +2 s (the tag unheard in it, still within the grace).
        #expect(second.count == 3, "\(second)")
        guard second.count == 3 else { return }
        if case .encoded(let bytes, let receivedAt, let origin) = second[0] {
            #expect(bytes == [1, 2, 3] && receivedAt == Self.t0 + .milliseconds(1_500) && origin?.gateway == "pi")
        } else {
            Issue.record("not the gateway's report: \(second[0])")
        }
        if case .refused(let refusal) = second[1] { #expect(refusal.reason == .wrongTopic) } else { Issue.record("\(second[1])") }
        if case .decoded(let header, let records) = second[2] {
            #expect(header.gateway == "esp-office" && header.time == Self.t0 + .seconds(2))
            #expect(records.map(\.beacon) == [Self.tags[0]] && records.allSatisfy { !$0.seen })
        } else {
            Issue.record("not the node's report: \(second[2])")
        }
        #expect(secondTick == Self.t0 + .seconds(2))
        #expect(subscription.plan([]).isEmpty)
    }
}
