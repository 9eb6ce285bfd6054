import BeaconAlertEngine
import BeaconCore
import BeaconPipeline

/// A beacon's title on the page: the title of the first alert with content whose match
/// names the beacon.
struct BeaconTitles {
    /// Each alert with a title: its match and the title.
    let alerts: [(match: BeaconMatch, title: String)]

    /// The titles of `alerts`, in their order.
    init(_ alerts: [PipelineInspection.Alert]) {
        self.alerts = alerts.compactMap { alert in
            alert.definition.rule.content.title.map { (alert.definition.match, $0) }
        }
    }

    /// The title of the beacon `id`, if an alert with a title matches it.
    subscript(id: BeaconID) -> String? { alerts.first { $0.match.matches(id) }?.title }
}
