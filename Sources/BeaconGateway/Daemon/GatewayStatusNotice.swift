import BeaconCore
import BeaconSinks
import BeaconSite

/// The `gatewayOffline` and `gatewayOnline` lifecycle events a site hub writes to every sink when
/// one of its gateways stops reporting for `hub.gatewayOffline`, and when it reports again.
///
/// One JSON line like the alerts' (`event`, `time`, `message`, `key`), with the gateway in place
/// of an alert and a beacon: `gateway`, its `room` (omitted when it has none), `lastReport`
/// (hub time of its latest report; omitted before any). `time` is when the state began: for
/// `gatewayOffline` its last report plus `hub.gatewayOffline`, for `gatewayOnline` the report
/// that woke it. The key, `gateway|<id>|<event>|<time in ns>`, is the same for every retry.
enum GatewayStatusNotice {
    /// The event of `status` (a change the fusion reported), for the gateway's `room`.
    static func event(for status: SiteGatewayStatus, room: String?) -> OutboundEvent {
        let kind = status.online ? "gatewayOnline" : "gatewayOffline"
        let key = "gateway|\(status.gateway)|\(kind)|\(status.since.nanosecondsSinceEpoch)"
        let message =
            status.online
            ? "gateway '\(status.gateway)' reports again"
            : "gateway '\(status.gateway)' stopped reporting"
                + (status.lastReport.map { " (last report at \($0.rfc3339String))" } ?? " (no report since the hub started)")
                + "; its room's silence is not taken as absence"
        var json = JSONWriter()
        json.object { json in
            json.member("event", kind)
            json.member("gateway", status.gateway)
            json.member("room", room)
            json.member("time", status.since.rfc3339String)
            json.member("lastReport", status.lastReport?.rfc3339String)
            json.member("message", message)
            json.member("key", key)
        }
        return OutboundEvent(key: key, body: json.string)
    }
}
