/// Durable storage of the alert engine's state.
///
/// The engine reads the whole state once when it starts and then writes each step's changes as
/// one batch, **before** emitting that step's events: an event is only ever emitted after the
/// state change behind it is stored, so a restart neither repeats a delivery nor loses a
/// scheduled alert. Implementations must apply a batch atomically (all or nothing) and durably
/// before returning.
public protocol AlertStateStore: AnyObject, Sendable {
    /// Reads everything stored.
    func load() throws -> AlertEngineState
    /// Applies `changes`, in order, atomically.
    func apply(_ changes: [AlertStateChange]) throws
}
