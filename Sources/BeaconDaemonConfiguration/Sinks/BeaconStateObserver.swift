import BeaconPipeline

/// Follows the beacons' presence as the daemon runs: told of each change (a beacon appearing,
/// changing proximity band, leaving), after the batch or tick that made it. Publishing state
/// (retained MQTT topics) is its job; it must not block.
public protocol BeaconStateObserver: Sendable {
    /// Beacons whose presence changed, in the order the changes happened.
    func observe(_ changes: [BeaconPresence])
    /// The daemon is stopping: publish what is left and let go of connections.
    func finish() async
    /// What the observer had to say when it started (for the daemon's log).
    var notes: [String] { get }
}

extension BeaconStateObserver {
    /// Nothing to say.
    public var notes: [String] { [] }
}
