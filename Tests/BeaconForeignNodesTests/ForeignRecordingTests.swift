import BeaconCore
import BeaconForeignNodes
import Testing

/// The JSON lines `beacond record-mqtt` writes and `replay --site` reads.
@Suite("Foreign recordings")
struct ForeignRecordingTests {
    @Test("a message written as a line reads back the same: time to the millisecond, topic, payload with quotes and non-ASCII")
    func roundTrip() {
        let message = ForeignRecording.Message(
            time: Timestamp(seconds: 1_701_132_479, nanoseconds: 913_000_000), topic: "espresense/rooms/office/name",
            payload: Array("Office \"north\" \\ ünïcode\ttab".utf8))
        let line = ForeignRecording.line(message)
        #expect(
            line.hasPrefix(
                #"{"time":"2023-11-28T00:47:59.913Z","topic":"espresense/rooms/office/name","payload":"Office \"north\""#))
        #expect(line.hasSuffix("}\n"))
        let read = ForeignRecording(text: line + line, file: "r.jsonl")
        #expect(read.errors.isEmpty)
        #expect(read.messages == [message, message])
    }

    @Test("bad lines are named file:line and skipped; blank lines are not errors")
    func badLines() {
        let good = #"{"time":"2023-11-28T00:47:59.913Z","topic":"t","payload":"online"}"#
        let text = [
            good, #"{"time":"2023-11-28T00:4"#, "", #"{"time":"yesterday","topic":"t","payload":"x"}"#,
            #"{"time":"2023-11-28T00:48:00Z","topic":"t","payload":{"rssi":-70}}"#, good,
        ].joined(separator: "\n")
        let read = ForeignRecording(text: text, file: "nodes.jsonl")
        #expect(read.messages.count == 2)
        #expect(read.errors.map { $0.prefix(14) } == ["nodes.jsonl:2:", "nodes.jsonl:4:", "nodes.jsonl:5:"])
        #expect(read.errors[1].contains("'yesterday' is not an ISO 8601 time"))
    }

    @Test("a payload that is not UTF-8 (a beacond gateway's binary report) is kept whole in base64 and reads back byte for byte")
    func binaryPayload() {
        let bytes: [UInt8] = [0x42, 0x52, 0x01, 0x00, 0xFF, 0xFE, 0x80, 0xC3, 0x28, 0x00, 0x7F]
        let message = ForeignRecording.Message(
            time: Timestamp(seconds: 1_701_132_479, nanoseconds: 0), topic: "beacond/site/shop/reports/3", payload: bytes)
        #expect(ForeignRecording.isBinary(bytes))
        #expect(!ForeignRecording.isBinary(Array("online".utf8)))
        let line = ForeignRecording.line(message)
        #expect(line.contains(#""payloadBase64":"QlIBAP/+gMMoAH8=""#), "\(line)")
        #expect(!line.contains(#""payload":"#))
        let read = ForeignRecording(text: line, file: "r.jsonl")
        #expect(read.errors.isEmpty)
        #expect(read.messages == [message])
    }

    @Test("a line with both payloads, neither, or base64 that is not: named and skipped")
    func badBinary() {
        let text = [
            #"{"time":"2023-11-28T00:47:59.913Z","topic":"t","payload":"a","payloadBase64":"YQ=="}"#,
            #"{"time":"2023-11-28T00:47:59.913Z","topic":"t"}"#,
            #"{"time":"2023-11-28T00:47:59.913Z","topic":"t","payloadBase64":"not base64!"}"#,
        ].joined(separator: "\n")
        let read = ForeignRecording(text: text, file: "r.jsonl")
        #expect(read.messages.isEmpty)
        #expect(read.errors.count == 3, "\(read.errors)")
        #expect(read.errors[0].contains("one of payload (text) and payloadBase64 (bytes)"))
        #expect(read.errors[2].contains("payloadBase64 is not base64"))
    }
}
