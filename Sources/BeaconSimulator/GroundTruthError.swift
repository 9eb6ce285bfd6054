/// Why a ground-truth file could not be written. (Scenario files that cannot be read are
/// `ConfigurationError`s, like the daemon's configuration.)
public enum GroundTruthError: Error, CustomStringConvertible, Equatable {
    /// The file could not be created or written.
    case unwritable(file: String, reason: String)

    public var description: String {
        switch self {
        case let .unwritable(file, reason):
            "\(file): cannot write the file (\(reason)); check the path, permissions and free space"
        }
    }
}
