/// What libmosquitto's callbacks hold instead of the client object itself.
///
/// The client keeps one (retained) reference to the context as its user data; the context refers
/// to its owner weakly. A callback that runs while the owner is being deinitialised finds nothing
/// and does nothing, and the context itself is released only after `mosquitto_destroy`, when no
/// callback can run any more. (An unretained pointer to the owner let a callback start on an
/// object whose deinitialisation had begun.)
final class MQTTCallbackContext<Owner: AnyObject>: @unchecked Sendable {
    // `@unchecked`: `owner` is set once, before the client's network thread starts, and only read
    // after; weak references are loaded atomically by the runtime.
    weak var owner: Owner?

    /// The owner behind a callback's user data, if it is still there.
    static func owner(_ userData: UnsafeMutableRawPointer?) -> Owner? {
        guard let userData else { return nil }
        return Unmanaged<MQTTCallbackContext<Owner>>.fromOpaque(userData).takeUnretainedValue().owner
    }
}
