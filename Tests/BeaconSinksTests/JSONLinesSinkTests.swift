import BeaconSinks
import Foundation
import Testing

@Suite("JSONLinesSink")
struct JSONLinesSinkTests {
    @Test("appends one line per event to the file, after what it already held")
    func appends() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-jsonl-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\"old\":true}\n".utf8).write(to: URL(fileURLWithPath: path))
        let sink = try JSONLinesSink(path: path)
        try await sink.deliver(OutboundEvent(key: "k1", body: #"{"event":"created"}"#))
        try await sink.deliver(OutboundEvent(key: "k2", body: #"{"event":"delivered"}"#))
        try await sink.flush()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "{\"old\":true}\n{\"event\":\"created\"}\n{\"event\":\"delivered\"}\n")
        #expect(sink.name == "jsonl:" + path)
    }

    @Test("after a torn last line (a write cut short) the next event starts a line of its own")
    func tornTail() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-jsonl-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\"whole\":true}\n{\"torn\":".utf8).write(to: URL(fileURLWithPath: path))
        let sink = try JSONLinesSink(path: path)
        try await sink.deliver(OutboundEvent(key: "k1", body: #"{"event":"created"}"#))
        try await sink.deliver(OutboundEvent(key: "k2", body: #"{"event":"delivered"}"#))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "{\"whole\":true}\n{\"torn\":\n{\"event\":\"created\"}\n{\"event\":\"delivered\"}\n")
    }

    @Test("a file that cannot be opened is an error naming it")
    func unopenable() {
        #expect(throws: SinkError.self) { try JSONLinesSink(path: "/nonexistent-directory/alerts.jsonl") }
    }

    @Test("a path that is not a regular file (/dev/null) delivers and flushes: there is nothing to sync")
    func devNull() async throws {
        let sink = try JSONLinesSink(path: "/dev/null")
        try await sink.deliver(OutboundEvent(key: "k1", body: #"{"event":"created"}"#))
        try await sink.flush()
    }

    @Test("a write that fails (/dev/full: ENOSPC) is an io error with its errno")
    func writeFails() async throws {
        let sink = try JSONLinesSink(path: "/dev/full")
        await #expect(throws: SinkError.io(path: "/dev/full", operation: "write", errno: ENOSPC)) {
            try await sink.deliver(OutboundEvent(key: "k1", body: #"{"event":"created"}"#))
        }
    }
}
