import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A hub whose broker is not there says so at once — in its log and on its page — rather than
/// showing an empty page; and it connects once the broker comes.
@Suite("A hub without its broker")
struct HubWithoutBrokerTests {
    @Test("the log and /api/status say the broker cannot be reached, at once; connected once it runs")
    func saysSoAtOnce() async throws {
        let port = try MosquittoBroker.freePort()
        let directory = try DaemonControlTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hub.yaml")
        try """
        site: {name: lonely, broker: {host: 127.0.0.1, port: \(port)}}
        gateways:
          - {id: hall-a, room: hall, position: [1, 1, 2.5]}
        http: {listen: "127.0.0.1:0"}
        sinks: []
        alerts: []

        """.write(to: file, atomically: true, encoding: .utf8)
        let hub = try RunningDaemon(arguments: ["hub", "--config", file.path])
        let url = try await DaemonReloadTests.controlURL(hub)
        let warning = try #require(await hub.errorLine(containing: "site: cannot reach the broker"))
        #expect(
            warning.contains("warning [BeaconSiteLink] site: cannot reach the broker 127.0.0.1:\(port) (Connection refused)"),
            "\(warning)")
        let (_, status) = try await DaemonControlTests.get(url + "/api/status")
        #expect(
            status.contains(#""broker":{"address":"127.0.0.1:\#(port)","connected":false,"detail":"cannot reach the broker"#),
            "\(status)")

        try await StatusPageTests.validate(status, as: "status", in: directory)

        let broker = try await MosquittoBroker(directory: directory, port: port, removesDirectory: false)
        defer { broker.stop() }
        _ = try #require(await hub.errorLine(containing: "site: connected to 127.0.0.1:\(port)"))
        let (_, connected) = try await DaemonControlTests.get(url + "/api/status")
        #expect(connected.contains(#""connected":true"#), "\(connected)")
        kill(hub.process.processIdentifier, SIGTERM)
        #expect(await hub.waitForExit().status == 0)
    }
}
