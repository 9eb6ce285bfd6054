import BeaconCore
import FoundationEssentials

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
///     _ hostABIVersion: UInt32, _ pluginABIVersion: UnsafeMutablePointer<UInt32>,
///     _ registrar: UnsafeMutableRawPointer, _ register: StrategyPluginABI.RegisterFunction
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
        pluginABIVersion: UnsafeMutablePointer<UInt32>,
        registrar: UnsafeMutableRawPointer,
        register: StrategyPluginABI.RegisterFunction
    ) -> Int32 {
        pluginABIVersion.pointee = StrategyPluginABI.version
        guard hostABIVersion == StrategyPluginABI.version else { return StrategyPluginABI.Status.abiMismatch.rawValue }
        // Lives as long as the process: the host keeps calling the plugin's factories.
        let context = Unmanaged.passRetained(ExportedRegistry(registry)).toOpaque()
        let encoder = JSONEncoder()
        for registration in registry.allRegistrations {
            guard let json = try? encoder.encode(PluginRegistrationDocument(registration)) else {
                return StrategyPluginABI.Status.registrationFailed.rawValue
            }
            let status = String(decoding: json, as: UTF8.self).withCString { json in
                register(
                    registrar, json, context, exportedCreate, exportedDestroy, exportedStep,
                    exportedFinishCycle, exportedConditionValid, exportedMarkDone)
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

private func exportedCreate(
    _ context: UnsafeMutableRawPointer, _ key: UnsafePointer<CChar>,
    _ json: UnsafePointer<CChar>,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> UnsafeMutableRawPointer? {
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
        error.pointee = strdup(text)
        return nil
    }
}

private func exportedDestroy(_ pointer: UnsafeMutableRawPointer) {
    Unmanaged<ExportedInstance>.fromOpaque(pointer).release()
}

private func exportedStep(
    _ pointer: UnsafeMutableRawPointer, _ words: UnsafePointer<UInt64>, _ now: Int64,
    _ evaluate: Bool
) -> Bool {
    let beacon = RangedBeacon(pluginWords: words)
    let now = Timestamp(nanosecondsSinceEpoch: now)
    if evaluate { return instance(pointer).evaluate(beacon: beacon, now: now) }
    instance(pointer).update(beacon: beacon, now: now)
    return false
}

private func exportedFinishCycle(
    _ pointer: UnsafeMutableRawPointer, _ now: Int64,
    _ fired: StrategyPluginABI.FiredFunction, _ context: UnsafeMutableRawPointer?
) {
    instance(pointer).finishCycle(now: Timestamp(nanosecondsSinceEpoch: now)) { id in
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: StrategyPluginABI.identityWordCount) { words in
            id.writePluginWords(to: words.baseAddress!)
            fired(context, words.baseAddress!)
        }
    }
}

private func exportedConditionValid(
    _ pointer: UnsafeMutableRawPointer, _ identity: UnsafePointer<UInt64>,
    _ now: Int64
) -> Bool {
    instance(pointer).isConditionValid(for: BeaconID(pluginWords: identity), now: Timestamp(nanosecondsSinceEpoch: now))
}

private func exportedMarkDone(_ pointer: UnsafeMutableRawPointer, _ identity: UnsafePointer<UInt64>, _ now: Int64) {
    instance(pointer).markActionDone(for: BeaconID(pluginWords: identity), now: Timestamp(nanosecondsSinceEpoch: now))
}
