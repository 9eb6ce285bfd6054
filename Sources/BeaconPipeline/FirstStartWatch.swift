import BeaconAlertEngine
import BeaconCore
import BeaconRanging

/// The alerts with `firstStart: quiet` that are starting for the first time, and until when the
/// beacons their cycles hear count as already in range (``FirstStart/window`` from the first
/// cycle each sees).
///
/// An alert starts for the first time when the engine's state has nothing of it — no history,
/// no saved strategy state: a new gateway, a gateway without a `state:` file (every start is a
/// first start then), or an alert added to a running or restarted gateway.
struct FirstStartWatch {
    /// Alert id → the end of its window (nil until its first cycle).
    private var windows: [String: Timestamp?] = [:]

    var isEmpty: Bool { windows.isEmpty }

    /// Starts watching the quiet alerts among `alertIDs` that `state` knows nothing of.
    mutating func watch(_ alertIDs: some Sequence<String>, unknownTo state: AlertEngineState) {
        for id in alertIDs where windows[id] == nil {
            let known =
                state.history.keys.contains { $0.alertID == id } || state.strategyStates.keys.contains { $0.alertID == id }
            if !known { windows[id] = .some(nil) }
        }
    }

    /// Marks the beacons `update` heard for each watched alert whose window is open (the first
    /// update opens it), and stops watching the alerts whose window has closed.
    mutating func observe(
        _ update: RangingUpdate, alerts: [DecisionStage.ConfiguredAlert], engine: inout AlertEngine,
        into output: inout AlertEngineOutput
    ) {
        let now = update.time
        for alert in alerts {
            let id = alert.definition.id
            guard let window = windows[id] else { continue }
            let end = window ?? now + FirstStart.window
            guard now <= end else {
                windows[id] = nil
                continue
            }
            windows[id] = .some(end)
            let match = alert.definition.match
            let present = update.beacons.lazy.filter { $0.seenThisCycle && match.matches($0.id) }.map(\.id)
            engine.quietAtFirstStart(Array(present), alertID: id, into: &output)
        }
    }
}
