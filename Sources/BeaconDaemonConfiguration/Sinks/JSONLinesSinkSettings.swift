import BeaconConfiguration
import BeaconSinks

/// `{type: jsonl, path: -}`: one JSON line per event to a file (appended, fsynced) or, with `-`,
/// to standard output.
public struct JSONLinesSinkSettings: SinkSettings {
    /// The file, or `-` for standard output.
    public var path: String

    /// Creates settings.
    public init(path: String = "-") {
        self.path = path
    }

    public var target: String { path }

    public func makeSink() throws -> BuiltSink {
        BuiltSink(try JSONLinesSink(path: path))
    }

    /// The `jsonl` kind.
    public static let kind = SinkKind(type: "jsonl", keys: ["path"]) { node throws(ConfigurationError) in
        JSONLinesSinkSettings(path: try node["path"]?.filePath() ?? "-")
    }
}
