import BeaconCore
import BeaconStrategyKit
import CBeacondPlugin

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A strategy living in a plugin, driven through the plugin ABI. Its per-beacon state stays on
/// the plugin's side, so ``parameter(for:)`` has nothing to show (`Parameter` is `Never`); it
/// is saved and restored through the plugin's `save_state` and `restore_state`.
final class PluginStrategy: BeaconAlertStrategy {
    typealias Parameter = Never

    let key: String
    private let instance: UnsafeMutableRawPointer
    private let functions: PluginFunctions

    init(key: String, instance: UnsafeMutableRawPointer, functions: PluginFunctions) {
        self.key = key
        self.instance = instance
        self.functions = functions
    }

    deinit { functions.destroy(instance) }

    private func step(_ beacon: RangedBeacon, now: Timestamp, evaluate: Bool) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: StrategyPluginABI.beaconWordCount) { words in
            beacon.writePluginWords(to: words.baseAddress!)
            return functions.step(instance, words.baseAddress!, now.nanosecondsSinceEpoch, evaluate)
        }
    }

    private func withIdentityWords<R>(_ id: BeaconID, _ body: (UnsafePointer<UInt64>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: StrategyPluginABI.identityWordCount) { words in
            id.writePluginWords(to: words.baseAddress!)
            return body(words.baseAddress!)
        }
    }

    func update(beacon: RangedBeacon, now: Timestamp) { _ = step(beacon, now: now, evaluate: false) }

    func evaluate(beacon: RangedBeacon, now: Timestamp) -> Bool { step(beacon, now: now, evaluate: true) }

    func parameter(for id: BeaconID) -> Never? { nil }

    func isConditionValid(_ parameter: Never, now: Timestamp) -> Bool {}

    func isReadyForAction(_ parameter: Never, now: Timestamp) -> Bool {}

    func isConditionValid(for id: BeaconID, now: Timestamp) -> Bool {
        withIdentityWords(id) { functions.conditionValid(instance, $0, now.nanosecondsSinceEpoch) }
    }

    func markActionDone(for id: BeaconID, now: Timestamp) {
        withIdentityWords(id) { functions.markDone(instance, $0, now.nanosecondsSinceEpoch) }
    }

    func finishCycle(now: Timestamp, fired: (BeaconID) -> Void) {
        withoutActuallyEscaping(fired) { fired in
            var callback = fired
            withUnsafeMutablePointer(to: &callback) { pointer in
                functions.finishCycle(instance, now.nanosecondsSinceEpoch, pluginFired, UnsafeMutableRawPointer(pointer))
            }
        }
    }

    // MARK: Explanations

    /// Where the beacon stands, as the plugin's `describe` says (`nil` without one, or for a
    /// beacon it does not remember).
    func status(of id: BeaconID, now: Timestamp) -> StrategyBeaconStatus? {
        guard let describe = functions.describe else { return nil }
        var status = beacond_beacon_status()
        var explanation: UnsafeMutablePointer<CChar>?
        defer { free(explanation) }
        let known = withIdentityWords(id) { describe(instance, $0, now.nanosecondsSinceEpoch, &status, &explanation) }
        guard known else { return nil }
        let progress = status.progress_unit.map {
            StrategyProgress(value: status.progress, threshold: status.progress_threshold, unit: String(cString: $0))
        }
        return StrategyBeaconStatus(
            beacon: id, actionStatus: status.action_done ? .actionDone : .waitingForAction,
            conditionValid: status.condition_valid, lastSeen: Timestamp(nanosecondsSinceEpoch: status.last_seen),
            progress: progress,
            resetsAt: status.resets_at == .min ? nil : Timestamp(nanosecondsSinceEpoch: status.resets_at),
            explanation: explanation.map { String(cString: $0) })
    }

    // MARK: Saved state

    var stateDurability: StrategyStateDurability {
        var message: UnsafeMutablePointer<CChar>?
        let code = functions.stateDurability(instance, &message)
        defer { free(message) }
        switch code {
        case 0: return .saved
        case 1: return .notNeeded
        default:
            let reason = message.map { String(cString: $0) } ?? "the plugin does not say what"
            return .incomplete("strategy \(key) (a plugin) does not save all of its per-beacon state: \(reason)")
        }
    }

    func collectStateChanges(into entries: inout [StrategyStateEntry]) {
        withUnsafeMutablePointer(to: &entries) { pointer in
            functions.saveState(instance, pluginSavedState, UnsafeMutableRawPointer(pointer))
        }
    }

    func restoreState(_ entries: [StrategyStateEntry]) throws {
        let saved = entries.filter { $0.state != nil }
        guard !saved.isEmpty else { return }
        // One block of identity words and one of state bytes, so that every C entry points
        // into memory that lives for the whole call.
        var words = [UInt64](repeating: 0, count: saved.count * StrategyPluginABI.identityWordCount)
        var bytes: [UInt8] = []
        var offsets: [Int] = []
        for (index, entry) in saved.enumerated() {
            words.withUnsafeMutableBufferPointer { buffer in
                entry.beacon.writePluginWords(to: buffer.baseAddress! + index * StrategyPluginABI.identityWordCount)
            }
            offsets.append(bytes.count)
            bytes.append(contentsOf: entry.state!)
        }
        let parts = saved.map { strdup($0.part) }
        defer { parts.forEach { free($0) } }
        var error: UnsafeMutablePointer<CChar>?
        let status = words.withUnsafeBufferPointer { words in
            bytes.withUnsafeBufferPointer { bytes in
                let table = saved.indices.map { index in
                    beacond_state_entry(
                        part: UnsafePointer(parts[index]),
                        identity: words.baseAddress! + index * StrategyPluginABI.identityWordCount,
                        bytes: bytes.baseAddress.map { $0 + offsets[index] },
                        length: saved[index].state!.count)
                }
                return table.withUnsafeBufferPointer { functions.restoreState(instance, $0.baseAddress, $0.count, &error) }
            }
        }
        defer { free(error) }
        guard status == 0 else {
            throw StrategyStateError.unreadable(
                strategy: key, beacon: "\(saved.count) beacon(s)",
                reason: error.map { String(cString: $0) } ?? "the plugin refused it (status \(status))")
        }
    }
}

/// Forwards a plugin's "fired" report to the Swift callback given to `finishCycle`.
private func pluginFired(_ context: UnsafeMutableRawPointer?, _ identity: UnsafePointer<UInt64>?) {
    guard let context, let identity else { return }
    let fired = context.assumingMemoryBound(to: ((BeaconID) -> Void).self).pointee
    fired(BeaconID(pluginWords: identity))
}

/// Appends one entry a plugin's `save_state` reports to the host's list.
private func pluginSavedState(_ context: UnsafeMutableRawPointer?, _ entry: UnsafePointer<beacond_state_entry>?) {
    guard let context, let entry = entry?.pointee, let identity = entry.identity else { return }
    let entries = context.assumingMemoryBound(to: [StrategyStateEntry].self)
    let state = entry.bytes.map { Array(UnsafeBufferPointer(start: $0, count: entry.length)) }
    entries.pointee.append(
        StrategyStateEntry(
            part: entry.part.map { String(cString: $0) } ?? "", beacon: BeaconID(pluginWords: identity), state: state))
}
