/// How `beacond parse` ends; the raw value is the process exit code.
public enum AdvertisementExportStatus: Int32, Sendable {
    /// Every file was read to its end (bad records, if any, were reported and skipped).
    case success = 0
    /// At least one file could not be read at all (missing, unreadable, not a capture, unsupported format).
    case unreadableFile = 1
    /// `--strict`: a record could not be decoded.
    case badRecord = 2
}
