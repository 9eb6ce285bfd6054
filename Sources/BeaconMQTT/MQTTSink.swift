import BeaconSinks
import CMosquitto
import Foundation
import Synchronization

/// Publishes each event's JSON with QoS 1 to `beacond/<gateway>/alerts` (or a configured topic)
/// through libmosquitto: the broker's PUBACK confirms the delivery.
///
/// The connection is made in the background and kept up by libmosquitto's network thread
/// (reconnecting after a loss, with a delay doubling from 1 s to 30 s). A delivery waits for the
/// connection up to the timeout and publishes only when connected, so a retry never stacks
/// copies in libmosquitto's own queue.
///
/// Besides events it keeps retained state (``publishRetained(topic:payload:)``): the latest
/// payload of each topic is republished after every reconnection, so a restarted broker without
/// persistence has it again. With a status topic (``MQTTConnectionOptions/statusTopic``) the
/// client announces `online` when connected, and leaves `offline` as its last will and on
/// ``close()``.
public final class MQTTSink: AlertSink, @unchecked Sendable {
    private struct State {
        var connected = false
        var refusal: String?
        var retained: [String: [UInt8]] = [:]
        /// Topics to clear (an empty retained payload) at the next connection: cleared while
        /// disconnected, forgotten once published.
        var clears: Set<String> = []
        var acknowledgements = PublicationAcknowledgements<CheckedContinuation<Void, any Error>>()
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
    /// Credentials, TLS and status topic.
    public let options: MQTTConnectionOptions
    private let clock: any Clock<Duration>
    private let handle: OpaquePointer
    /// What libmosquitto's callbacks reach this sink through: retained by the client, released
    /// only after `mosquitto_destroy`, so a callback never runs against a freed object.
    let context: MQTTCallbackContext<MQTTSink>
    private let state = Mutex(State())

    /// The default topic of a gateway: `beacond/<gateway>/alerts`.
    public static func defaultTopic(gateway: String) -> String { "beacond/\(gateway)/alerts" }

    /// Creates the client and starts connecting to `host:port` in the background.
    /// - Throws: ``MQTTSinkError/library(operation:message:)`` if the client cannot be created or
    ///   the TLS files cannot be used.
    public init(
        host: String, port: Int = 1883, topic: String, options: MQTTConnectionOptions = MQTTConnectionOptions(),
        clientID: String? = nil, timeout: Duration = .seconds(10),
        clock: any Clock<Duration> = ContinuousClock()
    ) throws(MQTTSinkError) {
        self.host = host
        self.port = port
        self.topic = topic
        self.timeout = timeout
        self.options = options
        self.clock = clock
        let context = MQTTCallbackContext<MQTTSink>()
        handle = try MQTTClientLifecycle.create(clientID: clientID, context: context)
        self.context = context
        context.owner = self
        mosquitto_connect_callback_set(handle) { _, context, code in
            MQTTCallbackContext<MQTTSink>.owner(context)?.connected(code: code)
        }
        mosquitto_disconnect_callback_set(handle) { _, context, _ in
            MQTTCallbackContext<MQTTSink>.owner(context)?.connectionChanged(connected: false)
        }
        mosquitto_publish_callback_set(handle) { _, context, messageID in
            MQTTCallbackContext<MQTTSink>.owner(context)?.acknowledged(messageID)
        }
        // Every stored property is set: from here a throw runs `deinit`, which destroys the
        // client (destroying it here too would free it twice).
        try MQTTClientLifecycle.configure(handle, options)
        try MQTTClientLifecycle.start(handle, host: host, port: port, keepAlive: options.keepAlive)
    }

    deinit {
        // A callback that starts from now on finds no sink (the context's reference is weak and
        // already nil) and does nothing. Deliveries still waiting fail.
        let waiters = state.withLock { state in
            state.acknowledgements.removeAllWaiters() + state.waitingForConnection.values
        }
        for waiter in waiters { waiter.resume(throwing: CancellationError()) }
        MQTTClientLifecycle.stop(handle, context: context)
    }

    /// `mqtt://host:port/topic`.
    public var name: String { "mqtt://\(host):\(port)/\(topic)" }

    /// The PUBACK is final: each event leaves the outbox once acknowledged.
    public var confirmsEachDelivery: Bool { true }

    /// Publishes with QoS 1 and returns when the broker acknowledged it.
    public func deliver(_ event: OutboundEvent) async throws {
        try await waitForConnection()
        try await waitForAcknowledgement(try publish(topic: topic, bytes: Array(event.body.utf8), retain: false))
    }

    /// Publishes `payload` retained with QoS 1 to `topic`, without waiting for the broker: the
    /// latest payload of each topic is kept and published again after every reconnection. An
    /// empty payload clears the topic at the broker (at the next connection when disconnected) and
    /// is then forgotten.
    public func publishRetained(topic: String, payload: String) {
        let bytes = Array(payload.utf8)
        let connected = state.withLock { state in
            state.retained[topic] = bytes.isEmpty ? nil : bytes
            if bytes.isEmpty && !state.connected {
                state.clears.insert(topic)
            } else {
                state.clears.remove(topic)
            }
            return state.connected
        }
        if connected { publishUnawaited(topic: topic, bytes: bytes) }
    }

    /// The retained topics the sink keeps to republish after a reconnection (not those it clears).
    public var retainedTopics: [String] { state.withLock { Array($0.retained.keys) } }

    /// How many retained topics the sink keeps to republish after a reconnection.
    public var retainedTopicCount: Int { state.withLock { $0.retained.count + $0.clears.count } }

    /// Publishes `payload` with QoS 1, not retained, to `topic` if connected, without waiting
    /// for the broker; dropped while disconnected (a reading that is stale by the reconnection).
    public func publishTransient(topic: String, payload: String) {
        guard state.withLock({ $0.connected }),
            let messageID = try? publish(topic: topic, bytes: Array(payload.utf8), retain: false)
        else { return }
        state.withLock { $0.acknowledgements.publishedUnawaited(messageID) }
    }

    /// Publishes `payload` with QoS 1, not retained, to `topic` and returns when the broker
    /// acknowledged it (as ``deliver(_:)`` does for the events topic).
    public func publishAcknowledged(topic: String, payload: String) async throws {
        try await waitForConnection()
        try await waitForAcknowledgement(try publish(topic: topic, bytes: Array(payload.utf8), retain: false))
    }

    /// Clears the retained message of `topic` at the broker (an empty retained payload) and
    /// returns once the broker acknowledged it: what an erasure waits for. The topic is no longer
    /// republished after a reconnection.
    /// - Throws: ``MQTTSinkError`` when not connected within the timeout, refused or not acknowledged.
    public func clearRetained(topic: String) async throws {
        state.withLock { state in
            state.retained[topic] = nil
            state.clears.remove(topic)
        }
        try await waitForConnection()
        try await waitForAcknowledgement(try publish(topic: topic, bytes: [], retain: true))
    }

    /// Waits for the connection (up to the timeout) so that the retained state is out, then
    /// announces `offline` on the status topic (waiting for the broker's acknowledgement, which
    /// also confirms everything published before it) and disconnects; deliveries after it fail.
    public func close() async {
        try? await waitForConnection()
        if let status = options.statusTopic, state.withLock({ $0.connected }),
            let messageID = try? publish(topic: status, bytes: Array("offline".utf8), retain: true)
        {
            try? await waitForAcknowledgement(messageID)
        }
        mosquitto_disconnect(handle)
    }

    /// Hands `bytes` to libmosquitto for a QoS 1 publication to `topic`; returns its message id.
    private func publish(topic: String, bytes: [UInt8], retain: Bool) throws(MQTTSinkError) -> Int32 {
        var messageID: Int32 = 0
        let code = bytes.withUnsafeBytes { buffer in
            mosquitto_publish(handle, &messageID, topic, Int32(buffer.count), buffer.baseAddress, 1, retain)
        }
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            throw .library(operation: "publish", message: String(cString: mosquitto_strerror(code)))
        }
        return messageID
    }

    /// Publishes retained state nobody waits for (its PUBACK is dropped when it comes).
    private func publishUnawaited(topic: String, bytes: [UInt8]) {
        guard let messageID = try? publish(topic: topic, bytes: bytes, retain: true) else { return }
        // The PUBACK may already have come: either way, none is left behind where a later
        // delivery reusing the id would take it for its own.
        state.withLock { $0.acknowledgements.publishedUnawaited(messageID) }
    }

    // MARK: Waiting (callbacks come from libmosquitto's network thread)

    private func connected(code: Int32) {
        guard code == 0 else {
            // Refused (bad credentials, …): waiting deliveries fail now, saying why.
            let reason = String(cString: mosquitto_connack_string(code))
            let broker = "\(host):\(port)"
            let waiters = state.withLock { state in
                state.refusal = reason
                state.connected = false
                defer { state.waitingForConnection.removeAll() }
                return Array(state.waitingForConnection.values)
            }
            for waiter in waiters { waiter.resume(throwing: MQTTSinkError.refused(broker: broker, reason: reason)) }
            return
        }
        // Connected and the snapshot in one step: a concurrent publishRetained either lands in
        // the snapshot or sees the connection and publishes itself.
        let (retained, clears) = state.withLock { state in
            state.refusal = nil
            state.connected = true
            defer { state.clears.removeAll() }
            return (state.retained, state.clears)
        }
        if let status = options.statusTopic { publishUnawaited(topic: status, bytes: Array("online".utf8)) }
        for topic in clears { publishUnawaited(topic: topic, bytes: []) }
        for (topic, bytes) in retained { publishUnawaited(topic: topic, bytes: bytes) }
        connectionChanged(connected: true)
    }

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
        state.withLock { $0.acknowledgements.acknowledged(messageID) }?.resume()
    }

    // The two waits below race the continuation against a timer in a task group: the timer is
    // started once the continuation is registered (so it cannot expire a wait not yet listed)
    // and cancelled as soon as the wait ends, so no task sleeps on after a wait for its timeout.

    private func waitForConnection() async throws {
        let (clock, timeout, broker) = (clock, timeout, "\(host):\(port)")
        try await withThrowingTaskGroup(of: Void.self) { timer in
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case connected, refused(String), waiting(Int) }
                let outcome: Outcome = state.withLock { state in
                    if state.connected { return .connected }
                    // The last attempt was refused (bad credentials): say so now rather than wait for the next.
                    if let refusal = state.refusal { return .refused(refusal) }
                    state.nextWaiter += 1
                    state.waitingForConnection[state.nextWaiter] = continuation
                    return .waiting(state.nextWaiter)
                }
                let waiter: Int
                switch outcome {
                case .connected: return continuation.resume()
                case .refused(let reason):
                    return continuation.resume(throwing: MQTTSinkError.refused(broker: broker, reason: reason))
                case .waiting(let number): waiter = number
                }
                timer.addTask {
                    guard (try? await clock.sleep(for: timeout)) != nil else { return }
                    let (expired, refusal) = self.state.withLock {
                        ($0.waitingForConnection.removeValue(forKey: waiter), $0.refusal)
                    }
                    expired?.resume(
                        throwing: refusal.map { MQTTSinkError.refused(broker: broker, reason: $0) }
                            ?? MQTTSinkError.notConnected(broker: broker, timeout: timeout))
                }
            }
            timer.cancelAll()
        }
    }

    private func waitForAcknowledgement(_ messageID: Int32) async throws {
        let (clock, timeout, broker) = (clock, timeout, "\(host):\(port)")
        try await withThrowingTaskGroup(of: Void.self) { timer in
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let already = state.withLock { $0.acknowledgements.wait(for: messageID, continuation) }
                if already { return continuation.resume() }
                timer.addTask {
                    guard (try? await clock.sleep(for: timeout)) != nil else { return }
                    // Given up: the id's PUBACK, if it comes later, confirms nothing.
                    let expired = self.state.withLock { $0.acknowledgements.giveUp(on: messageID) }
                    expired?.resume(throwing: MQTTSinkError.notAcknowledged(broker: broker, timeout: timeout))
                }
            }
            timer.cancelAll()
        }
    }
}
