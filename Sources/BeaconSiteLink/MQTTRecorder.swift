import BeaconCore
import BeaconForeignNodes
import BeaconMQTT
import Synchronization
import SystemPackage

/// Records what a broker carries under some topic filters as JSON lines (`beacond record-mqtt`):
/// one message a line, `{"time": "<receive time>", "topic": "…", "payload": "…"}`, stamped with
/// `clock` on arrival — the format `replay --site` takes as a foreign node's `capture:` (see
/// `ForeignRecording`).
///
/// Each line is written whole, as it arrives (one `write` per line, on libmosquitto's network
/// thread), so a recorder killed mid-run leaves every earlier line intact.
package final class MQTTRecorder: Sendable {
    private let descriptor: FileDescriptor
    private let clock: AnyTimestampClock
    private let recorded = Mutex(0)
    private let binary = Mutex(0)
    private let failure = Mutex<Errno?>(nil)

    /// Records into `descriptor` (a file opened for appending, or standard output).
    package init(descriptor: FileDescriptor, clock: AnyTimestampClock = .wall) {
        self.descriptor = descriptor
        self.clock = clock
    }

    /// Messages recorded so far.
    package var count: Int { recorded.withLock { $0 } }

    /// Of those, the ones whose payload was not UTF-8 text, kept in base64 (`payloadBase64`).
    package var binaryCount: Int { binary.withLock { $0 } }

    /// The first write error, if any (recording stops writing after it).
    package var writeError: Errno? { failure.withLock { $0 } }

    /// Takes one message: its line, written at once.
    package func record(topic: String, payload: [UInt8]) {
        let line = ForeignRecording.line(ForeignRecording.Message(time: clock.now, topic: topic, payload: payload))
        failure.withLock { failure in
            guard failure == nil else { return }
            do {
                _ = try descriptor.writeAll(line.utf8)
                recorded.withLock { $0 += 1 }
                if ForeignRecording.isBinary(payload) { binary.withLock { $0 += 1 } }
            } catch {
                failure = error as? Errno ?? .ioError
            }
        }
    }

    /// Subscribes to `topics` on the broker and records until cancelled, until `limit` messages,
    /// or until `duration` has passed on `clock`, logged in as `username` when given. Connection
    /// changes go to `onConnection`.
    package func run(
        host: String, port: Int, username: String? = nil, password: String? = nil, topics: [String],
        limit: Int? = nil, duration: Duration? = nil,
        onConnection: (@Sendable (_ connected: Bool, _ detail: String) -> Void)? = nil,
        onProgress: ((_ messages: Int, _ elapsed: Duration) -> Void)? = nil
    ) async throws {
        let client = try MQTTSiteClient(
            host: host, port: port, options: MQTTConnectionOptions(username: username, password: password),
            subscriptions: topics, onConnection: onConnection
        ) { [self] topic, payload in
            if let limit, count >= limit { return }
            record(topic: topic, payload: payload)
        }
        defer { client.close() }
        let start = clock.now
        while !Task.isCancelled {
            if let limit, count >= limit { return }
            if let duration, clock.now - start >= duration { return }
            if let error = writeError { throw error }
            onProgress?(count, clock.now - start)
            try await clock.sleep(for: .milliseconds(50))
        }
    }
}
