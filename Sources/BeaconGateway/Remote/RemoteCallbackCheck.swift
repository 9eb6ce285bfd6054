import BeaconAlertEngine
import BeaconDaemonConfiguration

/// A remote alert set whose callbacks no sink of this gateway would send: refused like any
/// invalid set (the last good one stays in force), as a local file with the same alerts is refused
/// at start.
struct RemoteCallbackCheck: Error, CustomStringConvertible {
    /// The first alert with callbacks.
    let alertID: String

    var description: String {
        "alert '\(alertID)' has callbacks, but no sink of this gateway sends them: add a webhook sink "
            + "(it posts each event to its callback URL) or an exec sink to the gateway's configuration"
    }

    /// Throws for the first alert with callbacks when `sinksSendCallbacks` is false.
    static func check(_ definitions: [AlertDefinition], sinksSendCallbacks: Bool) throws(RemoteCallbackCheck) {
        guard !sinksSendCallbacks, let first = definitions.first(where: { $0.policy.callbacks != .none }) else { return }
        throw RemoteCallbackCheck(alertID: first.id)
    }
}
