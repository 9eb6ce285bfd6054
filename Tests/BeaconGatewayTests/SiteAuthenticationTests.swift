import BeaconCore
import BeaconSite
import BeaconSiteReport
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The recipe of Docs/Site.md ("Security and failure") applied to a real mosquitto: a user per
/// gateway that may publish only under its own topics, a hub user that may only read them, and
/// gateways that sign their reports. A real signing gateway process feeds a real hub; forged,
/// re-addressed and replayed reports change nothing (issue 26, item 2).
@Suite("A site behind the broker's ACL, with signed reports", .serialized)
struct SiteAuthenticationTests {
    static let uuid = "51C0FFEE-0B5E-4A11-9D2A-7E3C5B1A2D4F"
    static let westKey = String(repeating: "5a", count: 32)
    static let eastKey = String(repeating: "e7", count: 32)

    /// The ACL file of the recipe, for site `lab` (Docs/Site.md shows the same).
    static let acl = """
        # The hub reads the reports of every gateway of the site.
        user hub
        topic read beacond/site/lab/records/#
        topic read beacond/site/lab/gateways/+/status
        # Each gateway (its MQTT user is its id) writes only under its own topics.
        pattern write beacond/site/lab/records/+/%u
        pattern write beacond/site/lab/gateways/%u/status

        """

    /// Adds `user` to the password `file` (made if missing); its exit status. Blocks: on a thread of its own.
    static func mosquittoPasswd(_ file: URL, _ user: String, _ password: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_passwd")
        process.arguments = (FileManager.default.fileExists(atPath: file.path) ? [] : ["-c"]) + ["-b", file.path, user, password]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        blockUntilExit(process)
        return process.terminationStatus
    }

    @Test("only the signing gateway's own reports reach the fusion; forgeries are denied by the broker or refused by the hub")
    func aclAndSignatures() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-acl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let passwords = directory.appendingPathComponent("passwords")
        let statuses = try await onOwnThread {
            try ["hub", "west", "east"].map { try Self.mosquittoPasswd(passwords, $0, "pw-\($0)") }
        }
        #expect(statuses == [0, 0, 0], "mosquitto_passwd's exit statuses")
        // The broker drops to the user `mosquitto` when started as root: it must read both files.
        chmod(passwords.path, 0o644)
        try Self.acl.write(to: directory.appendingPathComponent("acl"), atomically: true, encoding: .utf8)
        let broker = try await MosquittoBroker(
            configuration: "allow_anonymous false\npassword_file \(passwords.path)\nacl_file \(directory.path)/acl\n",
            directory: directory, removesDirectory: true)
        defer { broker.stop() }
        let brokerLogin = "broker: {host: 127.0.0.1, port: \(broker.port), username: %@, password: pw-%@}"
        let events = directory.appendingPathComponent("events.jsonl")
        let hubFile = directory.appendingPathComponent("hub.yaml")
        try """
        site: {name: lab, \(String(format: brokerLogin, "hub", "hub"))}
        gateways:
          - {id: west, room: hall, position: [2, 5, 2.5], key: \(Self.westKey)}
          - {id: east, room: shop, position: [18, 5, 2.5], key: \(Self.eastKey)}
        http: {listen: "127.0.0.1:0"}
        sinks:
          - {type: jsonl, path: \(events.path)}
        alerts:
          - {id: hall-dwell, match: {uuid: \(Self.uuid)}, strategy: time, parameters: {dwell: 4s, room: hall}}
          - {id: shop-visit, match: {uuid: \(Self.uuid)}, strategy: time, parameters: {dwell: 1s, room: shop}}

        """.write(to: hubFile, atomically: true, encoding: .utf8)
        let hubLog = directory.appendingPathComponent("hub.log")
        let hub = try SiteProcesses.start(["hub", "--config", hubFile.path], log: hubLog)
        defer { if hub.isRunning { kill(hub.processIdentifier, SIGKILL) } }
        // The tap that captures west's first report (see the replay below), subscribed before west starts.
        let captured = directory.appendingPathComponent("captured")
        let tap = Process()
        tap.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        tap.arguments = [
            "-h", "127.0.0.1", "-p", "\(broker.port)", "-u", "hub", "-P", "pw-hub", "-t", "beacond/site/lab/records/+/west",
            "-C", "1", "-N", "-i", "tap-west",
        ]
        _ = FileManager.default.createFile(atPath: captured.path, contents: nil)
        tap.standardOutput = try FileHandle(forWritingTo: captured)
        try tap.run()
        defer { if tap.isRunning { tap.terminate() } }
        // The tap's own subscription (its client id: the hub's SUBACK is in the log already).
        let subscribed = await realWorkFinishes(within: SiteProcesses.hang) { broker.logContains("Sending SUBACK to tap-west") }
        #expect(subscribed, "the tap (client id tap-west) never got its SUBACK from the broker")
        let site = "site: {name: lab, \(String(format: brokerLogin, "west", "west")), key: \(Self.westKey)"
        // The walk starts when the hub and the gateway are ready (its own start is replaced).
        let startFile = directory.appendingPathComponent("start")
        let scenario = directory.appendingPathComponent("lab.yaml")
        try """
        name: lab
        start: \(Timeline.start.rfc3339String)
        duration: 10s
        seed: 3
        radio: {path_loss_exponent: 2.0, shadowing_sigma: 1.0, fading: none}
        rooms:
          - {name: hall, area: {min: [0, 0], max: [10, 10]}}
          - {name: shop, area: {min: [10, 0], max: [20, 10]}}
        gateways:
          - {name: west, position: [2, 5, 2.5]}
        beacons:
          - {name: tag, ibeacon: {uuid: \(Self.uuid), major: 1, minor: 1}, interval: 250ms, position: [3, 5, 1]}

        """.write(to: scenario, atomically: true, encoding: .utf8)
        let gateways = try SiteProcesses.startGateways(
            ["west"], scenario: scenario, site: site, startFile: startFile, in: directory)
        defer { for process in gateways where process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        await SiteProcesses.waitUntilReady([hubLog, directory.appendingPathComponent("west.log")])
        let start = try await SiteProcesses.release(startFile, watching: [directory.appendingPathComponent("west.log")])

        // While the gateway runs: east (a real user) tries west's topic — the broker denies it —
        // then its own topic with a report in west's name, unsigned and signed with east's key.
        let topics = SiteTopics(site: "lab")
        let tag = BeaconID.iBeacon(uuid: UUID(uuidString: Self.uuid)!, major: 1, minor: 1)
        let bucket = topics.bucket(of: tag)
        var forged = GatewayReportEncoder(gateway: "west")
        let forgedTime = start + .seconds(2)
        forged.begin(time: forgedTime, cycleLength: .seconds(1))
        forged.append(
            GatewayRecord(
                beacon: tag, rssi: -25, meanRSSI: -25, distance: 0.2, accuracy: 0.1, sampleCount: 9, seen: true,
                lastSeen: forgedTime))
        forged.finish()
        // Sent once its time has come on the hub's clock (a report from the future is refused for that).
        _ = await realWorkFinishes(within: SiteProcesses.hang) {
            Date() > Date(timeIntervalSince1970: start.secondsSinceEpoch + 2)
        }
        let eastKey = GatewayKey(hex: Self.eastKey)!
        try await SiteProcesses.publish(
            forged.bytes, topic: topics.recordsTopic(bucket: bucket, gateway: "west"), port: broker.port, user: "east",
            in: directory)
        try await SiteProcesses.publish(
            forged.bytes, topic: topics.recordsTopic(bucket: bucket, gateway: "east"), port: broker.port, user: "east",
            in: directory)
        let sealedByEast = SignedReport.seal(forged.bytes, sequence: UInt64(Date().timeIntervalSince1970 * 1e9), key: eastKey)
        try await SiteProcesses.publish(
            sealedByEast, topic: topics.recordsTopic(bucket: bucket, gateway: "east"), port: broker.port, user: "east",
            in: directory)

        // A real west report, captured off the broker (the tap subscribed, as the hub may, before
        // west started) and sent again with west's own credentials: a replay, refused by its sequence.
        _ = await realWorkFinishes(within: SiteProcesses.hang) { !tap.isRunning }
        if tap.isRunning { tap.terminate() }
        await waitForExit(tap)
        let replay = [UInt8](try Data(contentsOf: captured))
        #expect(replay.withUnsafeBytes { SignedReport.isSealed($0) }, "west signs what it publishes")
        try await SiteProcesses.publish(
            replay, topic: topics.recordsTopic(bucket: bucket, gateway: "west"), port: broker.port, user: "west", in: directory)

        for process in gateways {
            await waitForExit(process)
            #expect(
                process.terminationStatus == 0, "\(SiteProcesses.lines(directory.appendingPathComponent("west.log")).suffix(10))")
        }
        _ = await realWorkFinishes(within: SiteProcesses.hang) {
            SiteProcesses.lines(events).contains { $0.contains(#""alert":"hall-dwell""#) }
        }
        kill(hub.processIdentifier, SIGTERM)
        await waitForExit(hub)
        let log = SiteProcesses.lines(hubLog)
        let created = SiteProcesses.lines(events).filter { $0.contains(#""event":"created""#) }
        let westLog = SiteProcesses.lines(directory.appendingPathComponent("west.log")).suffix(15)
        #expect(
            created.count == 1 && created.first?.contains(#""alert":"hall-dwell""#) == true,
            "\(created) \(log.suffix(10)) west: \(westLog)")
        #expect(broker.logContains("Denied PUBLISH from east-pub-"), "the broker let east publish under west's topic")
        // The hub refused east's report in west's name (its topic is east's), whether signed or not.
        #expect(log.contains { $0.contains("refused (wrong_topic)") }, "\(log.suffix(20))")
        let summary = log.last { $0.contains("refused:") } ?? ""
        #expect(summary.contains("wrong_topic 2"), "\(summary)")
        #expect(summary.contains("replayed 1"), "\(summary)")
        #expect(
            !summary.contains("bad_signature") && !summary.contains("unsigned"), "west's own reports were all taken: \(summary)")
    }
}
