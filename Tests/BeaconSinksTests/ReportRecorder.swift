import BeaconSinks

/// Collects an ``OutboxDispatcher``'s reports so a test can await them one by one.
final class ReportRecorder: Sendable {
    let reports: AsyncStream<OutboxDispatcher.Report>
    let continuation: AsyncStream<OutboxDispatcher.Report>.Continuation

    init() {
        (reports, continuation) = AsyncStream.makeStream(of: OutboxDispatcher.Report.self)
    }

    /// The closure to give the dispatcher.
    var report: @Sendable (OutboxDispatcher.Report) -> Void {
        { [continuation] report in continuation.yield(report) }
    }
}

extension OutboxDispatcher.Report {
    /// A retry report without its error text.
    struct Retry: Equatable {
        let attempt: Int
        let delay: Duration
    }

    /// The attempt and delay of a retry report.
    var retry: Retry? {
        if case .retrying(let attempt, let delay, _) = self { return Retry(attempt: attempt, delay: delay) }
        return nil
    }
}
