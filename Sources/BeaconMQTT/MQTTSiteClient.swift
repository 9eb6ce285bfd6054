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

    private struct State {
        var connected = false
        var refusal: String?
        var dropped = 0
        var published = 0
        var received = 0
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
    private let state = Mutex(State())
    private static let library: Void = { _ = mosquitto_lib_init() }()

    /// Creates the client and starts connecting in the background.
    /// - Parameters:
    ///   - host: the broker's host.
    ///   - port: the broker's port.
    ///   - options: credentials, TLS and, when it has a status topic, a retained
    ///     `online`/`offline` status with a last will.
    ///   - clientID: the MQTT client id (`nil`: one is made up).
    ///   - subscriptions: topic filters to receive (QoS 0).
    ///   - onMessage: receives each message, on libmosquitto's network thread: keep it short —
    ///     hand the message on.
    /// - Throws: ``MQTTSinkError/library(operation:message:)`` if the client cannot be created.
    public init(
        host: String, port: Int = 1883, options: MQTTConnectionOptions = MQTTConnectionOptions(), clientID: String? = nil,
        subscriptions: [String] = [], onMessage: MessageHandler? = nil
    ) throws(MQTTSinkError) {
        _ = Self.library
        self.host = host
        self.port = port
        self.subscriptions = subscriptions
        self.onMessage = onMessage
        statusTopic = options.statusTopic
        guard let handle = mosquitto_new(clientID, true, nil) else {
            throw .library(operation: "new", message: "cannot create a client (out of memory or bad client id)")
        }
        self.handle = handle
        context = MQTTCallbackContext()
        context.owner = self
        mosquitto_user_data_set(handle, Unmanaged.passRetained(context).toOpaque())
        mosquitto_connect_callback_set(handle) { _, context, code in
            MQTTCallbackContext<MQTTSiteClient>.owner(context)?.connected(code: code)
        }
        mosquitto_disconnect_callback_set(handle) { _, context, _ in
            MQTTCallbackContext<MQTTSiteClient>.owner(context)?.state.withLock { $0.connected = false }
        }
        mosquitto_message_callback_set(handle) { _, context, message in
            guard let message, let client = MQTTCallbackContext<MQTTSiteClient>.owner(context) else { return }
            client.received(message.pointee)
        }
        mosquitto_reconnect_delay_set(handle, 1, 30, true)
        if let username = options.username {
            let code = mosquitto_username_pw_set(handle, username, options.password)
            if code != MOSQ_ERR_SUCCESS.rawValue {
                throw .library(operation: "username_pw_set", message: String(cString: mosquitto_strerror(code)))
            }
        }
        if let tls = options.tls {
            let code = mosquitto_tls_set(handle, tls.caFile, nil, tls.certFile, tls.keyFile, nil)
            if code != MOSQ_ERR_SUCCESS.rawValue {
                throw .library(
                    operation: "tls_set",
                    message: String(cString: mosquitto_strerror(code))
                        + " (ca \(tls.caFile)); check that the files exist and are readable PEM")
            }
        }
        if let status = options.statusTopic {
            let offline = Array("offline".utf8)
            _ = mosquitto_will_set(handle, status, Int32(offline.count), offline, 1, true)
        }
        _ = mosquitto_connect_async(handle, host, Int32(port), 30)
        let started = mosquitto_loop_start(handle)
        if started != MOSQ_ERR_SUCCESS.rawValue {
            throw .library(operation: "loop_start", message: String(cString: mosquitto_strerror(started)))
        }
    }

    private let statusTopic: String?

    deinit {
        let client = ClientHandle(handle)
        let context = Unmanaged.passUnretained(self.context)
        // Stopped on a thread of its own and never cancelled (see MQTTSink's deinit).
        Thread.detachNewThread {
            mosquitto_disconnect(client.handle)
            mosquitto_loop_stop(client.handle, false)
            mosquitto_destroy(client.handle)
            context.release()
        }
    }

    private struct ClientHandle: @unchecked Sendable {
        let handle: OpaquePointer
        init(_ handle: OpaquePointer) { self.handle = handle }
    }

    /// `host:port`.
    public var broker: String { "\(host):\(port)" }

    /// Whether the client is connected now.
    public var isConnected: Bool { state.withLock { $0.connected } }

    /// Why the broker refused the last connection attempt, if it did.
    public var refusal: String? { state.withLock { $0.refusal } }

    /// Reports dropped because the broker was away.
    public var dropped: Int { state.withLock { $0.dropped } }

    /// Messages published.
    public var published: Int { state.withLock { $0.published } }

    /// Messages received.
    public var received: Int { state.withLock { $0.received } }

    /// Publishes `payload` to `topic` with QoS 0, not retained; returns false (and counts a drop)
    /// when not connected. Never waits.
    @discardableResult
    public func publish(topic: String, payload: UnsafeRawBufferPointer) -> Bool {
        guard state.withLock({ $0.connected }) else {
            state.withLock { $0.dropped += 1 }
            return false
        }
        let code = mosquitto_publish(handle, nil, topic, Int32(payload.count), payload.baseAddress, 0, false)
        state.withLock { code == MOSQ_ERR_SUCCESS.rawValue ? ($0.published += 1) : ($0.dropped += 1) }
        return code == MOSQ_ERR_SUCCESS.rawValue
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
            let reason = String(cString: mosquitto_connack_string(code))
            state.withLock {
                $0.refusal = reason
                $0.connected = false
            }
            return
        }
        for filter in subscriptions { _ = mosquitto_subscribe(handle, nil, filter, 0) }
        if let status = statusTopic {
            let online = Array("online".utf8)
            _ = mosquitto_publish(handle, nil, status, Int32(online.count), online, 1, true)
        }
        state.withLock {
            $0.refusal = nil
            $0.connected = true
        }
    }

    private func received(_ message: mosquitto_message) {
        state.withLock { $0.received += 1 }
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
