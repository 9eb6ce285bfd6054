import BeaconCore
import BeaconStrategyKit
import CBeacondPlugin
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The plugin side of the strategy plugin ABI: turns a registry into C registrations.
///
/// A plugin (a `.library(type: .dynamic)` product) exports the entry point with `@_cdecl` and
/// forwards to ``register(_:hostABIVersion:pluginABIVersion:registrar:register:)``:
///
/// ```swift
/// @_cdecl("beacond_register_strategies")
/// public func beacondRegisterStrategies(
///     _ hostABIVersion: UInt32, _ pluginABIVersion: UnsafeMutablePointer<UInt32>?,
///     _ registrar: UnsafeMutableRawPointer?, _ register: StrategyPluginABI.RegisterFunction?
/// ) -> Int32 {
///     var registry = StrategyRegistry()
///     try? registry.register(MyStrategy.registration)
///     return StrategyPluginExport.register(registry, hostABIVersion: hostABIVersion,
///                                          pluginABIVersion: pluginABIVersion,
///                                          registrar: registrar, register: register)
/// }
/// ```
public enum StrategyPluginExport {
    /// Checks the host's ABI version (reporting the plugin's in `pluginABIVersion`) and registers
    /// every strategy of `registry` with the host. Returns a ``StrategyPluginABI/Status`` code.
    public static func register(
        _ registry: StrategyRegistry, hostABIVersion: UInt32,
        pluginABIVersion: UnsafeMutablePointer<UInt32>?,
        registrar: UnsafeMutableRawPointer?,
        register: StrategyPluginABI.RegisterFunction?
    ) -> Int32 {
        pluginABIVersion?.pointee = StrategyPluginABI.version
        guard hostABIVersion == StrategyPluginABI.version else { return StrategyPluginABI.Status.abiMismatch.rawValue }
        guard let register else { return StrategyPluginABI.Status.registrationFailed.rawValue }
        // Lives as long as the process: the host keeps calling the plugin's factories.
        let context = Unmanaged.passRetained(ExportedRegistry(registry)).toOpaque()
        let encoder = JSONEncoder()
        for registration in registry.allRegistrations {
            guard let json = try? encoder.encode(PluginRegistrationDocument(registration)) else {
                return StrategyPluginABI.Status.registrationFailed.rawValue
            }
            let status = String(decoding: json, as: UTF8.self).withCString { json in
                withUnsafePointer(to: exportedFunctions) { register(registrar, json, context, $0) }
            }
            guard status == 0 else { return StrategyPluginABI.Status.registrationFailed.rawValue }
        }
        return StrategyPluginABI.Status.ok.rawValue
    }
}

/// The plugin's registry, kept alive for the host's factories.
private final class ExportedRegistry: Sendable {
    let registry: StrategyRegistry
    init(_ registry: StrategyRegistry) { self.registry = registry }
}

/// One strategy instance handed to the host as an opaque pointer.
private final class ExportedInstance {
    let strategy: any BeaconAlertStrategy
    init(_ strategy: any BeaconAlertStrategy) { self.strategy = strategy }
}

private func instance(_ pointer: UnsafeMutableRawPointer) -> any BeaconAlertStrategy {
    Unmanaged<ExportedInstance>.fromOpaque(pointer).takeUnretainedValue().strategy
}

/// The one function table every exported strategy shares (the instance pointer tells them apart).
private let exportedFunctions = beacond_strategy_functions(
    size: UInt32(MemoryLayout<beacond_strategy_functions>.size), create: exportedCreate, destroy: exportedDestroy,
    step: exportedStep, finish_cycle: exportedFinishCycle, condition_valid: exportedConditionValid,
    mark_done: exportedMarkDone, state_durability: exportedStateDurability, save_state: exportedSaveState,
    restore_state: exportedRestoreState, describe: exportedDescribe)

private func exportedCreate(
    _ context: UnsafeMutableRawPointer?, _ key: UnsafePointer<CChar>?,
    _ json: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> UnsafeMutableRawPointer? {
    guard let context, let key, let json else { return nil }
    let registry = Unmanaged<ExportedRegistry>.fromOpaque(context).takeUnretainedValue().registry
    do {
        let parameters = try JSONDecoder().decode(StrategyParameters.self, from: Data(String(cString: json).utf8))
        let strategy = try registry.makeStrategy(key: String(cString: key), parameters: parameters)
        return Unmanaged.passRetained(ExportedInstance(strategy)).toOpaque()
    } catch let failure {
        // A configuration error crosses as JSON so the host reports it exactly like its own.
        let configurationError =
            failure as? StrategyConfigurationError
            ?? .factoryFailed(strategy: String(cString: key), message: "\(failure)")
        let text =
            (try? JSONEncoder().encode(configurationError)).map { String(decoding: $0, as: UTF8.self) }
            ?? "\(failure)"
        error?.pointee = strdup(text)
        return nil
    }
}

private func exportedDestroy(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<ExportedInstance>.fromOpaque(pointer).release()
}

private func exportedStep(
    _ pointer: UnsafeMutableRawPointer?, _ words: UnsafePointer<UInt64>?, _ now: Int64,
    _ evaluate: Bool
) -> Bool {
    guard let pointer, let words else { return false }
    let beacon = RangedBeacon(pluginWords: words)
    let now = Timestamp(nanosecondsSinceEpoch: now)
    if evaluate { return instance(pointer).evaluate(beacon: beacon, now: now) }
    instance(pointer).update(beacon: beacon, now: now)
    return false
}

private func exportedFinishCycle(
    _ pointer: UnsafeMutableRawPointer?, _ now: Int64,
    _ fired: beacond_fired_fn?, _ context: UnsafeMutableRawPointer?
) {
    guard let pointer else { return }
    instance(pointer).finishCycle(now: Timestamp(nanosecondsSinceEpoch: now)) { id in
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: StrategyPluginABI.identityWordCount) { words in
            id.writePluginWords(to: words.baseAddress!)
            fired?(context, words.baseAddress!)
        }
    }
}

private func exportedConditionValid(
    _ pointer: UnsafeMutableRawPointer?, _ identity: UnsafePointer<UInt64>?,
    _ now: Int64
) -> Bool {
    guard let pointer, let identity else { return false }
    return instance(pointer).isConditionValid(
        for: BeaconID(pluginWords: identity), now: Timestamp(nanosecondsSinceEpoch: now))
}

private func exportedMarkDone(_ pointer: UnsafeMutableRawPointer?, _ identity: UnsafePointer<UInt64>?, _ now: Int64) {
    guard let pointer, let identity else { return }
    instance(pointer).markActionDone(for: BeaconID(pluginWords: identity), now: Timestamp(nanosecondsSinceEpoch: now))
}

private func exportedStateDurability(
    _ pointer: UnsafeMutableRawPointer?, _ message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let pointer else { return 2 }
    switch instance(pointer).stateDurability {
    case .saved: return 0
    case .notNeeded: return 1
    case .incomplete(let reason):
        message?.pointee = strdup(reason)
        return 2
    }
}

private func exportedSaveState(
    _ pointer: UnsafeMutableRawPointer?, _ report: beacond_state_fn?, _ context: UnsafeMutableRawPointer?
) {
    guard let pointer, let report else { return }
    var entries: [StrategyStateEntry] = []
    instance(pointer).collectStateChanges(into: &entries)
    for entry in entries {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: StrategyPluginABI.identityWordCount) { words in
            entry.beacon.writePluginWords(to: words.baseAddress!)
            entry.part.withCString { part in
                func send(_ bytes: UnsafePointer<UInt8>?, _ length: Int) {
                    var c = beacond_state_entry(part: part, identity: words.baseAddress!, bytes: bytes, length: length)
                    report(context, &c)
                }
                guard let state = entry.state else { return send(nil, 0) }
                // A present state is never NULL, even when empty: NULL means "forgotten".
                state.withUnsafeBufferPointer { buffer in
                    if let base = buffer.baseAddress {
                        send(base, buffer.count)
                    } else {
                        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { send($0.baseAddress!, 0) }
                    }
                }
            }
        }
    }
}

private func exportedRestoreState(
    _ pointer: UnsafeMutableRawPointer?, _ entries: UnsafePointer<beacond_state_entry>?, _ count: Int,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    guard let pointer else { return 1 }
    let restored = UnsafeBufferPointer(start: entries, count: entries == nil ? 0 : count).compactMap {
        entry -> StrategyStateEntry? in
        guard let identity = entry.identity else { return nil }
        return StrategyStateEntry(
            part: entry.part.map { String(cString: $0) } ?? "", beacon: BeaconID(pluginWords: identity),
            state: Array(UnsafeBufferPointer(start: entry.bytes, count: entry.bytes == nil ? 0 : entry.length)))
    }
    do {
        try instance(pointer).restoreState(restored)
        return 0
    } catch let failure {
        error?.pointee = strdup("\(failure)")
        return 1
    }
}

private func exportedDescribe(
    _ pointer: UnsafeMutableRawPointer?, _ identity: UnsafePointer<UInt64>?, _ now: Int64,
    _ status: UnsafeMutablePointer<beacond_beacon_status>?,
    _ explanation: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Bool {
    guard let pointer, let identity, let status,
        let known = instance(pointer).status(
            of: BeaconID(pluginWords: identity), now: Timestamp(nanosecondsSinceEpoch: now))
    else { return false }
    status.pointee.action_done = known.actionStatus == .actionDone
    status.pointee.condition_valid = known.conditionValid
    status.pointee.last_seen = known.lastSeen.nanosecondsSinceEpoch
    status.pointee.resets_at = known.resetsAt?.nanosecondsSinceEpoch ?? .min
    if let progress = known.progress {
        status.pointee.progress = progress.value
        status.pointee.progress_threshold = progress.threshold
        status.pointee.progress_unit = exportedUnit(progress.unit)
    } else {
        status.pointee.progress_unit = nil
    }
    if let text = known.explanation { explanation?.pointee = strdup(text) }
    return true
}

/// A unit's C string, made once per distinct unit and kept for the process (the ABI asks for a
/// static string; strategies use a handful of units).
private func exportedUnit(_ unit: String) -> UnsafePointer<CChar> {
    exportedUnits.withLock { units in
        if let known = units[unit] { return UnsafePointer(known) }
        let made = strdup(unit)!
        units[unit] = made
        return UnsafePointer(made)
    }
}

private let exportedUnits = Mutex<[String: UnsafeMutablePointer<CChar>]>([:])
