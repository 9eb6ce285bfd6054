import BeaconCore
import BeaconSimulator
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Two hubs for one share (`hub.takeover`), three gateways and a real mosquitto, each a `beacond`
/// process: the elected hub is killed (SIGKILL) while the walker dwells in the shop, and the
/// site's dwell alert must come exactly once — from the standby, which had decided the same dwell
/// from the same reports and now delivers it.
@Suite("Hub takeover: a standby hub over mosquitto")
struct HubTakeoverTests {
    static let hubs = ["hub-a", "hub-b"]

    /// The hub configuration of `id`: the same site, gateways and alert; its own state, sinks and
    /// presence file.
    static func configuration(id: String, site: String, in directory: URL) -> String {
        """
        \(site)}
        gateways:
        \(SiteProcessesTests.gateways.map { "  - {id: \($0.0), room: \($0.1), position: \($0.2)}" }.joined(separator: "\n"))
        hub:
          position: {tagHeight: 1.2, pathLossExponent: 2.0}
          presence: \(directory.appendingPathComponent("\(id)-presence.jsonl").path)
          takeover: {id: \(id), settle: 1s}
        state: \(directory.appendingPathComponent("\(id).sqlite").path)
        sinks:
          - {type: jsonl, path: \(directory.appendingPathComponent("\(id)-events.jsonl").path)}
        alerts:
          - {id: shop-dwell, match: {uuid: 0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A}, strategy: time, parameters: {dwell: 8s, room: shop}}

        """
    }

    /// When the active hub is killed.
    enum Moment: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// While the walker dwells in the shop, before the alert: the standby must send it.
        case midDwell = "mid-dwell"
        /// Once the active hub has delivered the alert: the standby held the same alert and must
        /// drop it (the active hub announced it committed).
        case afterDelivery = "after its delivery"
        var testDescription: String { rawValue }
    }

    @Test("the active hub killed: the standby takes over and the alert comes exactly once", arguments: Moment.allCases)
    func killed(at moment: Moment) async throws {
        try await ChildProcessSlots.siteRuns.withSlot { try await run(killedAt: moment) }
    }

    private func run(killedAt moment: Moment) async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let directory = broker.directory
        let scenarioFile = directory.appendingPathComponent("site.yaml")
        try SiteProcessesTests.scenario(start: Timeline.start).write(to: scenarioFile, atomically: true, encoding: .utf8)
        let startFile = directory.appendingPathComponent("start")
        let site = "site: {name: e2e, broker: {host: 127.0.0.1, port: \(broker.port)}"

        // One at a time, each once the one before is ready: hub-a, alone, settles as the active
        // hub; hub-b finds it active and stands by. Started together, which settled first was
        // the machine's doing: under load hub-b once settled before hub-a's status reached it and
        // stayed active (there is no preemption), and hub-a was never elected.
        var processes: [String: Process] = [:]
        for id in Self.hubs {
            let file = directory.appendingPathComponent("\(id).yaml")
            try Self.configuration(id: id, site: site, in: directory).write(to: file, atomically: true, encoding: .utf8)
            processes[id] = try SiteProcesses.start(
                ["hub", "--config", file.path], log: directory.appendingPathComponent("\(id).log"))
            await SiteProcesses.waitUntilReady([directory.appendingPathComponent("\(id).log")])
        }
        defer { for process in processes.values where process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        func log(_ id: String) -> [String] { SiteProcesses.lines(directory.appendingPathComponent("\(id).log")) }
        // The alerts' events (a hub also writes its gateways' lifecycle events: they go offline at the end).
        func events(_ id: String) -> [String] {
            SiteProcesses.lines(directory.appendingPathComponent("\(id)-events.jsonl")).filter { $0.contains(#""alert":"#) }
        }

        // Each said it was ready once it knew its role: hub-a active, hub-b its standby.
        let elected = await realWorkFinishes(within: SiteProcesses.hang) {
            log("hub-a").contains { $0.contains("'hub-a' is now the active hub") }
        }
        #expect(elected, "hub-a was not elected: \(log("hub-a").suffix(10))")
        #expect(
            log("hub-b").contains { $0.contains("'hub-b' is a standby") } || !log("hub-b").contains { $0.contains("active hub") })

        let gateways = try SiteProcesses.startGateways(
            SiteProcessesTests.gateways.map(\.0), scenario: scenarioFile, site: site, startFile: startFile, in: directory)
        defer { for process in gateways where process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let gatewayLogs = SiteProcessesTests.gateways.map { directory.appendingPathComponent("\($0.0).log") }
        await SiteProcesses.waitUntilReady(gatewayLogs)
        let start = try await SiteProcesses.release(startFile, watching: gatewayLogs)

        switch moment {
        case .midDwell:
            // The walker is in the shop for the active hub: its dwell has begun. Kill it there.
            let presenceA = directory.appendingPathComponent("hub-a-presence.jsonl")
            let inShop = await realWorkFinishes(within: SiteProcesses.hang) {
                SiteProcesses.lines(presenceA).contains { $0.contains(#""minor":1}"#) && $0.contains(#""room":"shop""#) }
            }
            #expect(inShop, "hub-a never had the walker in the shop: \(log("hub-a").suffix(10))")
        case .afterDelivery:
            let delivered = await realWorkFinishes(within: SiteProcesses.hang) {
                events("hub-a").contains { $0.contains(#""event":"delivered""#) }
            }
            #expect(delivered, "hub-a never delivered: \(log("hub-a").suffix(10))")
            // The standby has decided the same dwell by now (a cycle or two behind at most).
            let presenceB = directory.appendingPathComponent("hub-b-presence.jsonl")
            let lastA = try #require(SiteProcesses.time(of: events("hub-a").last ?? ""))
            _ = await realWorkFinishes(within: SiteProcesses.hang) {
                SiteProcesses.lines(presenceB).last.flatMap(SiteProcesses.time).map { $0 > lastA + .seconds(3) } ?? false
            }
        }
        kill(processes["hub-a"]!.processIdentifier, SIGKILL)
        await waitForExit(processes["hub-a"]!)
        // On a loaded machine the kill meant for the middle of the dwell may come after hub-a's
        // alert: exactly once is then what hub-a sent and hub-b did not send again.
        let alertedBeforeKill = events("hub-a").contains { $0.contains(#""event":"delivered""#) }

        // The standby hears the broker's last will for hub-a and takes over.
        let tookOver = await realWorkFinishes(within: SiteProcesses.hang) {
            log("hub-b").contains { $0.contains("'hub-b' is now the active hub") }
        }
        #expect(tookOver, "hub-b did not take over: \(log("hub-b").suffix(10))")

        for process in gateways { await waitForExit(process) }
        // Whatever hub-b will deliver, it has by the time the desk tag's records go stale.
        let end = try #require(SiteProcesses.time(of: #"{"time":"\#(start.advanced(by: .seconds(40)).rfc3339String)"#))
        let presenceB = directory.appendingPathComponent("hub-b-presence.jsonl")
        _ = await realWorkFinishes(within: SiteProcesses.hang) {
            SiteProcesses.lines(presenceB).last.flatMap(SiteProcesses.time).map { $0 >= end } ?? false
        }
        // The gateways have stopped: the hub active when it noticed writes their `gatewayOffline`
        // notices and claims them as it writes them — delivered without waiting for another
        // election. That is hub-b, or on a loaded machine, where the kill can come after the
        // gateways stopped, hub-a; never both.
        func offlineNotices(_ id: String) -> [String] {
            SiteProcesses.lines(directory.appendingPathComponent("\(id)-events.jsonl")).filter {
                $0.contains(#""event":"gatewayOffline""#)
            }
        }
        let offline = await realWorkFinishes(within: SiteProcesses.hang) {
            !(offlineNotices("hub-a") + offlineNotices("hub-b")).isEmpty
        }
        #expect(offline, "no hub delivered a gateway's offline notice: \(log("hub-b").suffix(10))")
        let deliveredByA = Set(
            offlineNotices("hub-a").compactMap { $0.firstMatch(of: /"gateway":"([^"]+)"/).map { String($0.1) } })
        let repeatedByB = offlineNotices("hub-b").filter { line in deliveredByA.contains { line.contains(#""gateway":"\#($0)""#) }
        }
        #expect(repeatedByB.isEmpty, "hub-b repeated offline notices hub-a had delivered: \(repeatedByB)")
        kill(processes["hub-b"]!.processIdentifier, SIGTERM)
        await waitForExit(processes["hub-b"]!)
        let created = (events("hub-a") + events("hub-b")).filter { $0.contains(#""event":"created""#) }
        #expect(created.count == 1, "\(created)")
        switch moment {
        case .midDwell where alertedBeforeKill:
            #expect(events("hub-b").isEmpty, "the standby sent again what hub-a had sent: \(events("hub-b"))")
        case .midDwell:
            #expect(events("hub-b").contains { $0.contains(#""event":"delivered""#) }, "\(log("hub-b").suffix(15))")
        case .afterDelivery:
            #expect(events("hub-b").isEmpty, "the standby sent again what hub-a had sent: \(events("hub-b"))")
        }
        #expect(created.first?.contains(#""alert":"shop-dwell""#) == true && created.first?.contains(#""minor":1}"#) == true)
        #expect(processes["hub-b"]!.terminationStatus == 0, "\(log("hub-b").suffix(10))")
    }
}
