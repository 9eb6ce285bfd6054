import BeaconCore
import BeaconSinks

/// The `remoteAlertsFailed` lifecycle event a daemon writes to every sink when a check of its
/// remote alert document fails (unreachable, refused, invalid): the last good set stays in force,
/// and the people who administer the document hear of it (iNotify's check-failed delegate).
///
/// One JSON line like the gateway's other notices (`event`, `time`, `message`, `key`): the `url`,
/// the `environment` (omitted without one), the `outcome` (`unreachable`, `refused`, `rejected`)
/// and the `lastSuccess` (omitted before any). The key, `remote|<url>|failed|<time in ns>`, is the
/// same for every retry.
enum RemoteAlertsNotice {
    /// The event of a failed check at `time`; `nil` for a check that did not fail.
    static func event(
        for outcome: RemoteAlertDefinitions.Outcome, url: String, environment: String?, lastSuccess: Timestamp?,
        at time: Timestamp
    ) -> OutboundEvent? {
        guard let failure = outcome.failure else { return nil }
        let key = "remote|\(url)|failed|\(time.nanosecondsSinceEpoch)"
        var json = JSONWriter()
        json.object { json in
            json.member("event", "remoteAlertsFailed")
            json.member("url", url)
            json.member("environment", environment)
            json.member("outcome", outcome.name)
            json.member("time", time.rfc3339String)
            json.member("lastSuccess", lastSuccess?.rfc3339String)
            json.member("message", "the last good alert set stays in force: \(failure)")
            json.member("key", key)
        }
        return OutboundEvent(key: key, body: json.string)
    }
}
