import ArgumentParser
import BeaconPipeline

/// The alert an offline tool (`explain`, `tune`) works on: the one `--alert` names, or the
/// configuration's only alert.
enum AlertChoice {
    /// The alert named `id` among `alerts`, or the only one when `id` is nil.
    /// - Throws: exit status 2, after saying which alerts there are.
    static func choose(_ id: String?, among alerts: [PipelineAlert]) throws -> PipelineAlert {
        let ids = alerts.map(\.id).joined(separator: ", ")
        if let id {
            guard let alert = alerts.first(where: { $0.id == id }) else {
                printError("error: no alert '\(id)'; the alerts: \(ids)")
                throw ExitCode(2)
            }
            return alert
        }
        guard alerts.count == 1 else {
            printError("error: name the alert with --alert; the alerts: \(ids)")
            throw ExitCode(2)
        }
        return alerts[0]
    }
}
