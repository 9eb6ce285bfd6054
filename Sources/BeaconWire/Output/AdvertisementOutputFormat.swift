/// The record formats `beacond parse` writes.
public enum AdvertisementOutputFormat: String, Hashable, Sendable, CaseIterable {
    /// One JSON object per line (``AdvertisementJSONLinesWriter``).
    case jsonLines = "jsonl"
    /// Comma-separated values with a header row (``AdvertisementCSVWriter``).
    case csv
}
