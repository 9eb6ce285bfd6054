import BeaconCore
import BeaconForeignNodes
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacond record-mqtt` against a real mosquitto: what it writes is what `replay --site` reads.
@Suite("beacond record-mqtt", .serialized)
struct RecordMQTTCommandTests {
    @Test("three messages published: three lines, each topic and payload as sent, stamped on arrival; other topics left out")
    func records() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = broker.directory
        let output = directory.appendingPathComponent("nodes.jsonl")
        let log = directory.appendingPathComponent("record.log")
        let recorder = try SiteProcesses.start(
            ["record-mqtt", "--broker", "127.0.0.1:\(broker.port)", "-t", "espresense/#", "-o", output.path, "--count", "3"],
            log: log)
        defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
        #expect(
            await realWorkFinishes(within: hangCeiling) {
                SiteProcesses.lines(log).contains { $0.contains("recording espresense/#") }
            }, "\(SiteProcesses.lines(log))")
        let before = Timestamp(secondsSinceEpoch: Date().timeIntervalSince1970)
        let device =
            #"{"mac":"df51fd4a4caf","id":"iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-65535","rssi@1m":-59,"rssi":-72.35}"#
        let sent: [(String, String)] = [
            ("espresense/devices/iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-65535/office", device),
            ("espresense/rooms/office/status", "online"),
            ("espresense/rooms/office/name", "Office \"north\" \\ ünïcode"),
        ]
        _ = try await SiteProcesses.publish(Array("elsewhere".utf8), topic: "home/other", port: broker.port, in: directory)
        for (topic, payload) in sent {
            #expect(try await SiteProcesses.publish(Array(payload.utf8), topic: topic, port: broker.port, in: directory) == 0)
        }
        await waitForExit(recorder)
        let after = Timestamp(secondsSinceEpoch: Date().timeIntervalSince1970)
        #expect(recorder.terminationStatus == 0, "\(SiteProcesses.lines(log))")
        let text = try String(contentsOf: output, encoding: .utf8)
        let recording = ForeignRecording(text: text, file: output.path)
        #expect(recording.errors.isEmpty, "\(recording.errors)")
        #expect(recording.messages.map(\.topic) == sent.map(\.0))
        #expect(recording.messages.map { String(decoding: $0.payload, as: UTF8.self) } == sent.map(\.1))
        #expect(recording.messages.allSatisfy { $0.time >= before - .milliseconds(1) && $0.time <= after })
        #expect(text.split(separator: "\n").count == 3)
    }
}
