// swift-format-ignore-file
// (The article WritingYourOwnStrategy.md quotes this file verbatim.)
import BeaconCore
import BeaconStrategyKit

/// What the first way keeps for each beacon: the visit and the action status.
struct DwellRecord {
    var visitStart: Timestamp?
    var lastDetection: Timestamp?
    var detectedNow = false
    var actionStatus = ActionStatus.waitingForAction
}

/// The dwell strategy written against the protocol alone: it keeps its records, resets and
/// forgets beacons itself.
final class TimeAlertStrategyFirstWay: BeaconAlertStrategy {
    let key = "timeAlertFirstWay"
    let dwell: Duration
    let gap: Duration
    let maxTimeBeforeReset: Duration

    private var records: [BeaconID: DwellRecord] = [:]
    private var updatedThisCycle: Set<BeaconID> = []

    init(dwell: Duration = .seconds(60), gap: Duration = .seconds(3), maxTimeBeforeReset: Duration = .seconds(60)) {
        self.dwell = dwell
        self.gap = gap
        self.maxTimeBeforeReset = maxTimeBeforeReset
    }

    func update(beacon: RangedBeacon, now: Timestamp) {
        updatedThisCycle.insert(beacon.id)
        record(beacon.id, detected: beacon.seenThisCycle, now: now)
    }

    private func record(_ id: BeaconID, detected: Bool, now: Timestamp) {
        var record = records[id] ?? DwellRecord()
        if detected {
            // Unseen for longer than the gap: this detection starts a new visit.
            if record.lastDetection.map({ now - $0 > gap }) ?? true { record.visitStart = now }
            record.lastDetection = now
        } else if record.actionStatus == .actionDone,
                  let last = record.lastDetection, now - last >= maxTimeBeforeReset {
            record.actionStatus = .waitingForAction
        }
        record.detectedNow = detected
        records[id] = record
    }

    func parameter(for id: BeaconID) -> DwellRecord? { records[id] }

    func isConditionValid(_ record: DwellRecord, now: Timestamp) -> Bool {
        guard record.detectedNow, let start = record.visitStart else { return false }
        return now - start >= dwell
    }

    func isReadyForAction(_ record: DwellRecord, now: Timestamp) -> Bool {
        isConditionValid(record, now: now) && record.actionStatus == .waitingForAction
    }

    func markActionDone(for id: BeaconID, now: Timestamp) {
        records[id]?.actionStatus = .actionDone
    }

    func finishCycle(now: Timestamp, fired: (BeaconID) -> Void) {
        for id in Array(records.keys) where !updatedThisCycle.contains(id) {
            record(id, detected: false, now: now)
            if let record = records[id], isReadyForAction(record, now: now) {
                markActionDone(for: id, now: now)
                fired(id)
            }
            // Forget beacons gone for longer than both the reset time and the gap.
            if records[id]?.lastDetection.map({ now - $0 > max(maxTimeBeforeReset, gap) }) ?? true {
                records[id] = nil
            }
        }
        updatedThisCycle.removeAll(keepingCapacity: true)
    }
}
