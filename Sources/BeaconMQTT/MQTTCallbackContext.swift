/// What libmosquitto's callbacks hold instead of the sink itself.
///
/// The client keeps one (retained) reference to the context as its user data; the context refers
/// to the sink weakly. A callback that runs while the sink is being deinitialised finds no sink
/// and does nothing, and the context itself is released only after `mosquitto_destroy`, when no
/// callback can run any more. (An unretained pointer to the sink let a callback start on an
/// object whose deinitialisation had begun.)
final class MQTTCallbackContext: @unchecked Sendable {
    // `@unchecked`: `sink` is set once, before the client's network thread starts, and only read
    // after; weak references are loaded atomically by the runtime.
    weak var sink: MQTTSink?

    /// The sink behind a callback's user data, if it is still there.
    static func sink(_ userData: UnsafeMutableRawPointer?) -> MQTTSink? {
        guard let userData else { return nil }
        return Unmanaged<MQTTCallbackContext>.fromOpaque(userData).takeUnretainedValue().sink
    }
}
