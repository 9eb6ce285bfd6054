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
}
