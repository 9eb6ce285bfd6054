import BeaconCore
import BeaconSinks
import BeaconTestSupport
import Foundation
import Testing

@Suite("ExecSink")
struct ExecSinkTests {
    static let event = OutboundEvent(
        key: "door|beacon|delivered|1", body: #"{"event":"delivered"}"#,
        destination: "http://127.0.0.1:9/cb")

    @Test("the command gets the JSON line on stdin and the key and destination in its environment")
    func input() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-exec-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = ExecSink(command: "cat > '\(path)'; echo \"$BEACOND_EVENT_KEY $BEACOND_DESTINATION\" >> '\(path)'")
        try await sink.deliver(Self.event)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "{\"event\":\"delivered\"}\ndoor|beacon|delivered|1 http://127.0.0.1:9/cb\n")
    }

    @Test("a non-zero exit status is a failed delivery")
    func failure() async {
        let sink = ExecSink(command: "cat > /dev/null; exit 3")
        await #expect(throws: SinkError.commandFailed(command: "cat > /dev/null; exit 3", status: 3)) {
            try await sink.deliver(Self.event)
        }
    }

    @Test("a command still running at the timeout is killed and the delivery fails")
    func timeout() async throws {
        let clock = ManualClock()
        let sink = ExecSink(command: "exec sleep 30", timeout: .seconds(5), clock: clock)
        let delivery = Task { try await sink.deliver(Self.event) }
        try #require(await eventually { clock.sleeperCount > 0 }, "the task under test never reached its wait")
        clock.advance(by: .seconds(5))
        await #expect(throws: SinkError.commandTimedOut(command: "exec sleep 30", timeout: .seconds(5))) {
            try await delivery.value
        }
    }
}
