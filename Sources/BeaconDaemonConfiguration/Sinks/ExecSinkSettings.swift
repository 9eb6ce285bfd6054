import BeaconConfiguration
import BeaconSinks

/// `{type: exec, command: "notify-send beacond", timeout: 30s}`: `/bin/sh -c command` per event,
/// the event's JSON on standard input, its key and callback URL in the environment.
public struct ExecSinkSettings: SinkSettings {
    /// The shell command.
    public var command: String
    /// How long it may run before it is killed.
    public var timeout: Duration

    /// Creates settings.
    public init(command: String, timeout: Duration = .seconds(30)) {
        self.command = command
        self.timeout = timeout
    }

    public var target: String { command }
    public var sendsCallbacks: Bool { true }

    public func makeSink() throws -> BuiltSink {
        BuiltSink(ExecSink(command: command, timeout: timeout))
    }

    /// The `exec` kind.
    public static let kind = SinkKind(type: "exec", keys: ["command", "timeout"]) { node throws(ConfigurationError) in
        ExecSinkSettings(
            command: try node.required("command").string(),
            timeout: try SinkKind.timeout(node, default: .seconds(30)))
    }
}
