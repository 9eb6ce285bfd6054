import CMosquitto
import Foundation
import Synchronization

/// A plain MQTT client for a site's traffic: gateways publish their per-cycle reports with
/// QoS 0, hubs subscribe to the buckets they fuse.
///
/// Reports are superseded every cycle, so nothing is queued or retried: a report published while
/// the broker is away is dropped and counted (``dropped``) — the hub's staleness window covers
/// a lost cycle, and a gateway's own alerts never depend on the broker. Subscriptions are made
/// again after every reconnection (clean sessions: a restarted hub does not receive a backlog of
/// stale reports). The connection is kept up by libmosquitto's network thread, reconnecting with
/// a delay doubling from 1 s to 30 s.
public final class MQTTSiteClient: @unchecked Sendable {
    /// A received message: topic and payload.
    public typealias MessageHandler = @Sendable (_ topic: String, _ payload: [UInt8]) -> Void
    /// Told when the connection comes up (`true`) or goes down (`false`), with what happened.
    public typealias ConnectionHandler = @Sendable (_ connected: Bool, _ detail: String) -> Void

    private struct State {
        var connected = false
        var dropped = 0
        /// The message ids of this connection's subscriptions not yet acknowledged.
        var unacknowledged: Set<Int32> = []
    }

    /// The broker's host.
    public let host: String
    /// The broker's port.
    public let port: Int
    /// The topic filters subscribed to (QoS 0), renewed on every connection.
    public let subscriptions: [String]
    private let handle: OpaquePointer
    private let context: MQTTCallbackContext<MQTTSiteClient>
    private let onMessage: MessageHandler?
    private let onConnection: ConnectionHandler?
    private let onSubscribed: (@Sendable () -> Void)?
    private let onPublished: (@Sendable (_ messageID: Int32) -> Void)?
    private let state = Mutex(State())

    /// Creates the client and starts connecting in the background.
    /// - Parameters:
    ///   - host: the broker's host.
    ///   - port: the broker's port.
    ///   - options: credentials, TLS and, when it has a status topic, a retained
    ///     `online`/`offline` status with a last will.
    ///   - clientID: the MQTT client id (`nil`: one is made up).
    ///   - subscriptions: topic filters to receive (QoS 0).
    ///   - onConnection: told of each change of the connection (the first connection, a loss, a
    ///     refusal, a return), on libmosquitto's network thread.
    ///   - onMessage: receives each message, on libmosquitto's network thread: keep it short —
    ///     hand the message on.
    ///   - onSubscribed: told when the broker has acknowledged every subscription of a connection
    ///     (from then on, nothing published to them is missed), on each connection, on
    ///     libmosquitto's network thread; at once on connecting when there are none.
    ///   - onPublished: told, with its message id, when the broker has acknowledged (PUBACK) a
    ///     message sent with ``publishReliably(topic:payload:retained:)``, on libmosquitto's
    ///     network thread.
    /// - Throws: ``MQTTSinkError/library(operation:message:)`` if the client cannot be created.
    public init(
        host: String, port: Int = 1883, options: MQTTConnectionOptions = MQTTConnectionOptions(), clientID: String? = nil,
        subscriptions: [String] = [], onConnection: ConnectionHandler? = nil, onMessage: MessageHandler? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil, onPublished: (@Sendable (_ messageID: Int32) -> Void)? = nil
    ) throws(MQTTSinkError) {
        self.host = host
        self.port = port
        self.subscriptions = subscriptions
        self.onMessage = onMessage
        self.onConnection = onConnection
        self.onSubscribed = onSubscribed
        self.onPublished = onPublished
        statusTopic = options.statusTopic
        let context = MQTTCallbackContext<MQTTSiteClient>()
        handle = try MQTTClientLifecycle.create(clientID: clientID, context: context)
        self.context = context
        context.owner = self
        mosquitto_connect_callback_set(handle) { _, context, code in
            MQTTCallbackContext<MQTTSiteClient>.owner(context)?.connected(code: code)
        }
        mosquitto_disconnect_callback_set(handle) { _, context, code in
            MQTTCallbackContext<MQTTSiteClient>.owner(context)?.disconnected(code: code)
        }
        mosquitto_subscribe_callback_set(handle) { _, context, messageID, _, _ in
            MQTTCallbackContext<MQTTSiteClient>.owner(context)?.acknowledged(subscription: messageID)
        }
        mosquitto_publish_callback_set(handle) { _, context, messageID in
            MQTTCallbackContext<MQTTSiteClient>.owner(context)?.onPublished?(messageID)
        }
        mosquitto_message_callback_set(handle) { _, context, message in
            guard let message, let client = MQTTCallbackContext<MQTTSiteClient>.owner(context) else { return }
            client.received(message.pointee)
        }
        // Every stored property is set: from here a throw runs `deinit`, which destroys the client.
        try MQTTClientLifecycle.configure(handle, options)
        if let failure = try MQTTClientLifecycle.start(handle, host: host, port: port, keepAlive: options.keepAlive),
            lastRefusal.exchange(-1, ordering: .relaxed) != -1
        {
            onConnection?(false, "cannot reach the broker \(host):\(port) (\(failure)); trying again every few seconds")
        }
    }

    private let statusTopic: String?
    /// The last refusal reported, so that a broker refusing every second is reported once (-1:
    /// the broker could not be reached, reported once until a connection comes).
    private let lastRefusal = Atomic<Int32>(0)

    deinit {
        MQTTClientLifecycle.stop(handle, context: context)
    }

    /// `host:port`.
    public var broker: String { "\(host):\(port)" }

    /// Whether the client is connected now.
    public var isConnected: Bool { state.withLock { $0.connected } }

    /// Reports dropped because the broker was away.
    public var dropped: Int { state.withLock { $0.dropped } }

    /// Publishes `payload` to `topic` with QoS 0, not retained; returns false (and counts a drop)
    /// when not connected. Never waits.
    @discardableResult
    public func publish(topic: String, payload: UnsafeRawBufferPointer) -> Bool {
        guard state.withLock({ $0.connected }) else {
            state.withLock { $0.dropped += 1 }
            return false
        }
        let code = mosquitto_publish(handle, nil, topic, Int32(payload.count), payload.baseAddress, 0, false)
        if code != MOSQ_ERR_SUCCESS.rawValue { state.withLock { $0.dropped += 1 } }
        return code == MOSQ_ERR_SUCCESS.rawValue
    }

    /// Publishes `payload` to `topic` with QoS 1 (the broker acknowledges it: `onPublished`;
    /// libmosquitto resends it until then, after a reconnection too), retained or not; returns its
    /// message id, or `nil` when not connected.
    @discardableResult
    public func publishReliably(topic: String, payload: [UInt8], retained: Bool) -> Int32? {
        guard state.withLock({ $0.connected }) else { return nil }
        var messageID: Int32 = 0
        let code = mosquitto_publish(handle, &messageID, topic, Int32(payload.count), payload, 1, retained)
        return code == MOSQ_ERR_SUCCESS.rawValue ? messageID : nil
    }

    /// Announces `offline` on the status topic (if any) and disconnects.
    public func close() {
        if let status = statusTopic, isConnected {
            let offline = Array("offline".utf8)
            _ = mosquitto_publish(handle, nil, status, Int32(offline.count), offline, 1, true)
        }
        mosquitto_disconnect(handle)
    }

    // MARK: Callbacks (libmosquitto's network thread)

    private func connected(code: Int32) {
        guard code == 0 else {
            // Refused: libmosquitto tries again.
            let was = state.withLock { state in
                defer { state.connected = false }
                return state.connected
            }
            if was || code != lastRefusal.exchange(code, ordering: .relaxed) {
                onConnection?(
                    false, "the broker \(broker) refused the connection (\(String(cString: mosquitto_connack_string(code))))")
            }
            return
        }
        lastRefusal.store(0, ordering: .relaxed)
        // The ids are noted before the acknowledgements can come (on this same network thread).
        var pending: Set<Int32> = []
        for filter in subscriptions {
            var messageID: Int32 = 0
            if mosquitto_subscribe(handle, &messageID, filter, 0) == MOSQ_ERR_SUCCESS.rawValue { pending.insert(messageID) }
        }
        state.withLock { $0.unacknowledged = pending }
        if let status = statusTopic {
            let online = Array("online".utf8)
            _ = mosquitto_publish(handle, nil, status, Int32(online.count), online, 1, true)
        }
        state.withLock { $0.connected = true }
        onConnection?(true, "connected to \(broker)")
        if pending.isEmpty { onSubscribed?() }
    }

    private func acknowledged(subscription messageID: Int32) {
        let all = state.withLock { state in
            state.unacknowledged.remove(messageID) != nil && state.unacknowledged.isEmpty
        }
        if all { onSubscribed?() }
    }

    private func disconnected(code: Int32) {
        let was = state.withLock { state in
            defer { state.connected = false }
            return state.connected
        }
        // Code 0: our own disconnect (close()); anything else: the connection was lost — or, never
        // made, an attempt failed (said once, until a connection comes).
        if was, code != 0 {
            onConnection?(false, "lost the connection to \(broker) (\(String(cString: mosquitto_strerror(code))))")
        } else if code != 0, lastRefusal.exchange(-1, ordering: .relaxed) != -1 {
            onConnection?(
                false,
                "cannot reach the broker \(broker) (\(String(cString: mosquitto_strerror(code)))); trying again every few seconds"
            )
        }
    }

    private func received(_ message: mosquitto_message) {
        guard let onMessage, let topic = message.topic else { return }
        let payload: [UInt8] =
            if let bytes = message.payload, message.payloadlen > 0 {
                Array(UnsafeRawBufferPointer(start: bytes, count: Int(message.payloadlen)))
            } else {
                []
            }
        onMessage(String(cString: topic), payload)
    }
}
