import BeaconCore

/// A strategy living in a plugin, driven through the plugin ABI. Its per-beacon state stays on
/// the plugin's side, so ``parameter(for:)`` has nothing to show (`Parameter` is `Never`).
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

    var stateDurability: StrategyStateDurability {
        .incomplete(
            "strategy \(key) comes from a plugin, whose per-beacon state lives inside the plugin and is not "
                + "saved (the plugin interface has no save and restore yet): a restart may repeat or lose its alerts")
    }

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
}

/// Forwards a plugin's "fired" report to the Swift callback given to `finishCycle`.
private func pluginFired(_ context: UnsafeMutableRawPointer?, _ identity: UnsafePointer<UInt64>) {
    guard let context else { return }
    let fired = context.assumingMemoryBound(to: ((BeaconID) -> Void).self).pointee
    fired(BeaconID(pluginWords: identity))
}
