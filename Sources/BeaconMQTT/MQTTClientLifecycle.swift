import CMosquitto
import Foundation

/// What the MQTT sink and the site client share about a libmosquitto client: creating it with
/// its callback context, configuring credentials, TLS and the last will, starting its network
/// thread, and stopping it safely.
enum MQTTClientLifecycle {
    private static let library: Void = { _ = mosquitto_lib_init() }()

    /// Creates a client (clean session) whose user data is `context`, retained until ``stop(_:context:)``.
    static func create<Owner: AnyObject>(clientID: String?, context: MQTTCallbackContext<Owner>) throws(MQTTSinkError)
        -> OpaquePointer
    {
        _ = library
        guard let handle = mosquitto_new(clientID, true, nil) else {
            throw .library(operation: "new", message: "cannot create a client (out of memory or bad client id)")
        }
        // libmosquitto holds one reference to the context, given back by `stop` after destroy.
        mosquitto_user_data_set(handle, Unmanaged.passRetained(context).toOpaque())
        return handle
    }

    /// Sets the credentials, TLS and, with a status topic, the `offline` last will.
    static func configure(_ handle: OpaquePointer, _ options: MQTTConnectionOptions) throws(MQTTSinkError) {
        func check(_ code: Int32, _ operation: String, _ advice: String) throws(MQTTSinkError) {
            guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
            throw .library(operation: operation, message: String(cString: mosquitto_strerror(code)) + advice)
        }
        if let username = options.username {
            try check(mosquitto_username_pw_set(handle, username, options.password), "username_pw_set", "")
        }
        if let tls = options.tls {
            try check(
                mosquitto_tls_set(handle, tls.caFile, nil, tls.certFile, tls.keyFile, nil), "tls_set",
                " (ca \(tls.caFile)\(tls.certFile.map { ", cert \($0)" } ?? "")\(tls.keyFile.map { ", key \($0)" } ?? ""));"
                    + " check that the files exist, are readable PEM, and that cert and key go together")
        }
        if let status = options.statusTopic {
            let offline = Array("offline".utf8)
            try check(mosquitto_will_set(handle, status, Int32(offline.count), offline, 1, true), "will_set", "")
        }
    }

    /// Starts connecting in the background and keeps the connection up (reconnecting after a
    /// loss with a delay doubling from 1 s to 30 s); a refused first attempt is fine.
    /// - Returns: why the first connection attempt failed at once (the broker's host or port
    ///   refused it, a name that does not resolve), or `nil` when it is under way; either way the
    ///   network thread keeps trying.
    @discardableResult
    static func start(
        _ handle: OpaquePointer, host: String, port: Int, keepAlive: Duration = .seconds(30)
    ) throws(MQTTSinkError) -> String? {
        mosquitto_reconnect_delay_set(handle, 1, 30, true)
        // The network thread first, then the connection: when the first connection fails at once
        // (the broker is not up yet), a thread started after it waits for ever for a state that
        // never comes, and the client never connects (eclipse-mosquitto/mosquitto#1903; the
        // order below is the workaround of #2576). Started first, the thread retries.
        let started = mosquitto_loop_start(handle)
        if started != MOSQ_ERR_SUCCESS.rawValue {
            throw .library(operation: "loop_start", message: String(cString: mosquitto_strerror(started)))
        }
        let connecting = mosquitto_connect_async(handle, host, Int32(port), Int32(clamping: keepAlive.components.seconds))
        let failure: String? =
            connecting == MOSQ_ERR_SUCCESS.rawValue
            ? nil
            : connecting == MOSQ_ERR_ERRNO.rawValue
                ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(connecting))
        return failure
    }

    /// Stops and destroys the client on a thread of its own, then releases `context`.
    ///
    /// libmosquitto's network thread may be in the middle of a (re)connection: it is asked to
    /// stop, never cancelled (`mosquitto_loop_stop(_, true)` is `pthread_cancel`, which can
    /// interrupt it inside malloc or OpenSSL and corrupt the heap). Only once the client is
    /// destroyed — no callback can run any more — is the context released. Call from the owner's
    /// `deinit`: a callback that starts meanwhile finds no owner (its reference is weak).
    static func stop<Owner: AnyObject>(_ handle: OpaquePointer, context: MQTTCallbackContext<Owner>) {
        let client = ClientHandle(handle)
        let context = Unmanaged.passUnretained(context)
        Thread.detachNewThread {
            mosquitto_disconnect(client.handle)
            mosquitto_loop_stop(client.handle, false)
            mosquitto_destroy(client.handle)
            context.release()
        }
    }

    /// A libmosquitto client handed to the thread that stops it (and nobody else).
    private struct ClientHandle: @unchecked Sendable {
        let handle: OpaquePointer
        init(_ handle: OpaquePointer) { self.handle = handle }
    }
}
