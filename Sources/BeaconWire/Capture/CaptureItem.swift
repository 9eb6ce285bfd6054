/// What a capture reader hands to its callback: the next record, or why the next record could
/// not be read.
public enum CaptureItem {
    /// A well-formed record (a borrowed view; copy what you keep).
    case record(CaptureRecord)
    /// A malformed record or block. Reading continues after it unless the file ended.
    case error(CaptureError)
}
