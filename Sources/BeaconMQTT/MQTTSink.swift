import BeaconSinks
import CMosquitto
import Synchronization

/// Publishes each event's JSON with QoS 1 to `beacond/<gateway>/alerts` (or a configured topic)
/// through libmosquitto: the broker's PUBACK confirms the delivery.
///
/// The connection is made in the background and kept up by libmosquitto's network thread
/// (reconnecting after a loss). A delivery waits for the connection up to the timeout and
/// publishes only when connected, so a retry never stacks copies in libmosquitto's own queue.
public final class MQTTSink: AlertSink, @unchecked Sendable {
    private struct State {
        var connected = false
        var acknowledged: Set<Int32> = []
        var waitingForAck: [Int32: CheckedContinuation<Void, any Error>] = [:]
        var waitingForConnection: [Int: CheckedContinuation<Void, any Error>] = [:]
        var nextWaiter = 0
    }

    /// The broker's host.
    public let host: String
    /// The broker's port.
    public let port: Int
    /// The topic events are published to.
    public let topic: String
    /// How long a delivery may wait for the connection, and then for the PUBACK.
    public let timeout: Duration
    private let clock: any Clock<Duration>
    private let handle: OpaquePointer
    private let state = Mutex(State())

    private static let library: Void = { _ = mosquitto_lib_init() }()

    /// The default topic of a gateway: `beacond/<gateway>/alerts`.
    public static func defaultTopic(gateway: String) -> String { "beacond/\(gateway)/alerts" }

    /// Creates the client and starts connecting to `host:port` in the background.
    /// - Throws: ``MQTTSinkError/library(operation:message:)`` if the client cannot be created.
    public init(host: String, port: Int = 1883, topic: String, clientID: String? = nil, timeout: Duration = .seconds(10),
                clock: any Clock<Duration> = ContinuousClock()) throws(MQTTSinkError) {
        _ = Self.library
        self.host = host
        self.port = port
        self.topic = topic
        self.timeout = timeout
        self.clock = clock
        guard let handle = mosquitto_new(clientID, true, nil) else {
            throw .library(operation: "new", message: "cannot create a client (out of memory or bad client id)")
        }
        self.handle = handle
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_connect_callback_set(handle) { _, context, code in
            guard let context else { return }
            Unmanaged<MQTTSink>.fromOpaque(context).takeUnretainedValue().connectionChanged(connected: code == 0)
        }
        mosquitto_disconnect_callback_set(handle) { _, context, _ in
            guard let context else { return }
            Unmanaged<MQTTSink>.fromOpaque(context).takeUnretainedValue().connectionChanged(connected: false)
        }
        mosquitto_publish_callback_set(handle) { _, context, messageID in
            guard let context else { return }
            Unmanaged<MQTTSink>.fromOpaque(context).takeUnretainedValue().acknowledged(messageID)
        }
        mosquitto_reconnect_delay_set(handle, 1, 30, true)
        // A refused first attempt is fine: the network thread keeps reconnecting.
        _ = mosquitto_connect_async(handle, host, Int32(port), 30)
        let started = mosquitto_loop_start(handle)
        if started != MOSQ_ERR_SUCCESS.rawValue {
            mosquitto_destroy(handle)
            throw .library(operation: "loop_start", message: String(cString: mosquitto_strerror(started)))
        }
    }

    deinit {
        mosquitto_disconnect(handle)
        mosquitto_loop_stop(handle, true)
        mosquitto_destroy(handle)
    }

    /// `mqtt://host:port/topic`.
    public var name: String { "mqtt://\(host):\(port)/\(topic)" }

    /// The PUBACK is final: each event leaves the outbox once acknowledged.
    public var confirmsEachDelivery: Bool { true }

    /// Publishes with QoS 1 and returns when the broker acknowledged it.
    public func deliver(_ event: OutboundEvent) async throws {
        try await waitForConnection()
        var messageID: Int32 = 0
        let payload = Array(event.body.utf8)
        let code = payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, &messageID, topic, Int32(bytes.count), bytes.baseAddress, 1, false)
        }
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTSinkError.library(operation: "publish", message: String(cString: mosquitto_strerror(code)))
        }
        try await waitForAcknowledgement(messageID)
    }

    // MARK: Waiting (callbacks come from libmosquitto's network thread)

    private func connectionChanged(connected: Bool) {
        let waiters: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            state.connected = connected
            guard connected else { return [] }
            defer { state.waitingForConnection.removeAll() }
            return Array(state.waitingForConnection.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    private func acknowledged(_ messageID: Int32) {
        let waiter: CheckedContinuation<Void, any Error>? = state.withLock { state in
            if let waiter = state.waitingForAck.removeValue(forKey: messageID) { return waiter }
            state.acknowledged.insert(messageID)
            return nil
        }
        waiter?.resume()
    }

    private func waitForConnection() async throws {
        let (clock, timeout, broker) = (clock, timeout, "\(host):\(port)")
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let waiter: Int? = state.withLock { state in
                if state.connected { return nil }
                state.nextWaiter += 1
                state.waitingForConnection[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let waiter else { return continuation.resume() }
            Task {
                try? await clock.sleep(for: timeout)
                let expired = self.state.withLock { $0.waitingForConnection.removeValue(forKey: waiter) }
                expired?.resume(throwing: MQTTSinkError.notConnected(broker: broker, timeout: timeout))
            }
        }
    }

    private func waitForAcknowledgement(_ messageID: Int32) async throws {
        let (clock, timeout, broker) = (clock, timeout, "\(host):\(port)")
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let already = state.withLock { state in
                if state.acknowledged.remove(messageID) != nil { return true }
                state.waitingForAck[messageID] = continuation
                return false
            }
            if already { return continuation.resume() }
            Task {
                try? await clock.sleep(for: timeout)
                let expired = self.state.withLock { $0.waitingForAck.removeValue(forKey: messageID) }
                expired?.resume(throwing: MQTTSinkError.notAcknowledged(broker: broker, timeout: timeout))
            }
        }
    }
}
