import BeaconSinks

/// What one `sinks:` entry says, once read: everything needed to build its sink. Each kind of
/// sink has its own settings type, registered with the ``SinkKind`` that reads it.
public protocol SinkSettings: Hashable, Sendable {
    /// What the sink's default name is made of after `type:` (a path, a URL, a command).
    var target: String { get }
    /// Whether the sink sends alerts' callbacks (to their URL, or to a command as
    /// `BEACOND_DESTINATION`); an alert with callbacks needs one such sink.
    var sendsCallbacks: Bool { get }
    /// Opens the sink (and, for sinks that publish it, the beacon state observer).
    func makeSink() throws -> BuiltSink
}

extension SinkSettings {
    public var sendsCallbacks: Bool { false }
}

/// A sink as the daemon runs it: the sink, and what follows the beacons' presence through it.
public struct BuiltSink: Sendable {
    /// The sink.
    public var sink: any AlertSink
    /// A beacon state observer publishing through the sink (MQTT retained state), if any.
    public var stateObserver: (any BeaconStateObserver)?

    /// Creates a built sink.
    public init(_ sink: any AlertSink, stateObserver: (any BeaconStateObserver)? = nil) {
        self.sink = sink
        self.stateObserver = stateObserver
    }
}
