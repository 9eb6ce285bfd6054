import BeaconAlertEngine
import BeaconCore
import BeaconSinks
import Foundation

/// The `error` lifecycle event that tells the other sinks a sink gave up on an event, or spilled
/// it because its backlog was full: same alert, beacon and strategy as the event, the time, and a
/// message naming the sink, the attempts, the error and where the event waits
/// (`beacond outbox list`).
///
/// Written to every sink but the one that gave up, so it cannot feed on itself; and none is made
/// for an `error` event given up on (two failing sinks would otherwise bounce notices forever).
enum DeadLetterNotice {
    /// The notice for `event` (a JSON line of the sinks' schema), or `nil` for an `error` event
    /// or a body that is not one of beacond's events.
    static func event(
        for event: OutboundEvent, sink: String, attempts: Int, error: String, at time: Timestamp
    ) -> OutboundEvent? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(event.body.utf8)) as? [String: Any],
            let kind = object["event"] as? String, kind != AlertEvent.Kind.error.rawValue,
            let alertID = object["alert"] as? String,
            let beaconObject = object["beacon"] as? [String: Any], let beacon = try? BeaconID(jsonObject: beaconObject)
        else { return nil }
        let notice = AlertEvent(
            kind: .error, alertID: alertID, beacon: beacon, strategy: object["strategy"] as? String ?? "", time: time,
            messages: [
                (attempts == 0
                    ? "sink '\(sink)' could not queue the \(kind) event \(event.key): \(error); "
                    : "sink '\(sink)' gave up on the \(kind) event \(event.key) after \(attempts) attempt(s): \(error); ")
                    + "it is kept among that sink's dead letters (beacond outbox list)"
            ])
        return OutboundEvent(key: notice.idempotencyKey, body: notice.jsonLine)
    }
}
