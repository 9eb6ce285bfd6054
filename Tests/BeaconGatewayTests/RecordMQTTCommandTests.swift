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
    @Test(
        "four messages published: four lines, each topic and payload as sent (a binary one in base64), stamped on arrival; other topics left out"
    )
    func records() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let directory = broker.directory
        let output = directory.appendingPathComponent("nodes.jsonl")
        let log = directory.appendingPathComponent("record.log")
        let recorder = try SiteProcesses.start(
            ["record-mqtt", "--broker", "127.0.0.1:\(broker.port)", "-t", "espresense/#", "-o", output.path, "--count", "4"],
            log: log)
        defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
        #expect(
            await realWorkFinishes(within: hangCeiling) {
                SiteProcesses.lines(log).contains { $0.contains("recording espresense/#") }
            }, "\(SiteProcesses.lines(log))")
        let before = Timestamp(secondsSinceEpoch: Date().timeIntervalSince1970)
        let device =
            #"{"mac":"df51fd4a4caf","id":"iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-65535","rssi@1m":-59,"rssi":-72.35}"#
        // The last one binary, as a beacond gateway's report is: not UTF-8, kept whole.
        let sent: [(String, [UInt8])] = [
            ("espresense/devices/iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-65535/office", Array(device.utf8)),
            ("espresense/rooms/office/status", Array("online".utf8)),
            ("espresense/rooms/office/name", Array("Office \"north\" \\ ünïcode".utf8)),
            ("espresense/rooms/office/report", [0x42, 0x52, 0x01, 0x00, 0xFF, 0xFE, 0x80, 0xC3, 0x28, 0x0A, 0x00]),
        ]
        _ = try await SiteProcesses.publish(Array("elsewhere".utf8), topic: "home/other", port: broker.port, in: directory)
        for (topic, payload) in sent {
            #expect(try await SiteProcesses.publish(payload, topic: topic, port: broker.port, in: directory) == 0)
        }
        await waitForExit(recorder)
        let after = Timestamp(secondsSinceEpoch: Date().timeIntervalSince1970)
        #expect(recorder.terminationStatus == 0, "\(SiteProcesses.lines(log))")
        let text = try String(contentsOf: output, encoding: .utf8)
        let recording = ForeignRecording(text: text, file: output.path)
        #expect(recording.errors.isEmpty, "\(recording.errors)")
        #expect(recording.messages.map(\.topic) == sent.map(\.0))
        #expect(recording.messages.map(\.payload) == sent.map(\.1))
        #expect(recording.messages.allSatisfy { $0.time >= before - .milliseconds(1) && $0.time <= after })
        #expect(text.split(separator: "\n").count == 4)
        #expect(text.split(separator: "\n").last?.contains(#""payloadBase64":"QlIBAP/+gMMoCgA=""#) == true, "\(text)")
        #expect(
            SiteProcesses.lines(log).contains {
                $0.contains(
                    "record-mqtt: 4 messages (1 not UTF-8 text, such as a beacond gateway's binary reports: kept whole in base64")
            }, "\(SiteProcesses.lines(log))")
    }
}
