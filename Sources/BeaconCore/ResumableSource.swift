/// A source with a time of its own (a replay, a simulation) that can start part way through.
///
/// What lies before the resume time is read but neither delivered nor paced, so a paced source
/// reaches it at once. The daemon resumes such a source where its saved state ends: a restarted
/// `beacond run` then neither decides any stretch of time twice nor skips one, as a radio goes on
/// hearing after a restart.
public protocol ResumableSource: AdvertisementSource {
    /// This source, delivering only the packets stamped at or after `time` (pacing starts there).
    /// - Parameter time: the first instant to deliver.
    /// - Returns: a source that skips what lies before `time`.
    func resuming(from time: Timestamp) -> any AdvertisementSource
}
