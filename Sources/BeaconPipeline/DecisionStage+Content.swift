import BeaconAlertEngine
import BeaconCore
import Foundation

extension DecisionStage {
    /// Fills in the content of this input's events whose alert varies it
    /// (``AlertRule/variations``): the title and message templates, and which of its messages
    /// the event says, from what the stage knows of the beacon now (its name, its room, how long
    /// it has been in range) and the engine's count of its deliveries.
    func renderContent() {
        for index in output.events.indices {
            let event = output.events[index].event
            guard let rule = engine.configuration.rules[event.alertID], let variations = rule.variations else { continue }
            let key = AlertKey(alertID: event.alertID, beacon: event.beacon)
            let history = engine.state.history[key]
            let deliveries = history?.deliveries ?? 0
            // A created event tells of the delivery to come (made already, when it was due at
            // once); the others of one made.
            let made = event.kind != .created || history?.lastDeliveredDue == event.scheduledFor
            let turn = made ? max(0, deliveries - 1) + event.attempt : deliveries
            let ranged = world.beacon(event.beacon)
            let context = ContentContext(
                alertID: event.alertID, beacon: event.beacon, name: event.beaconName,
                room: ranged.flatMap { $0.roomUnknown ? nil : $0.room },
                dwell: ranged.map { event.time - $0.firstSeen }, attempt: event.attempt, time: event.time,
                timeZone: rule.policy.window?.timeZone ?? TimeZone(secondsFromGMT: 0)!)
            output.events[index].event.content = variations.render(
                event.content, turn: turn, due: event.scheduledFor ?? event.time, context: context)
        }
    }
}
