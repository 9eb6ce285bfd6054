import BeaconCore
import BeaconStrategyKit
import CBeacondPlugin
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C functions a plugin registered for one strategy key, checked complete. The pointers
/// stay valid for the life of the process (plugins are never unloaded) and an instance is
/// called from one task at a time, hence `@unchecked Sendable`.
struct PluginFunctions: @unchecked Sendable {
    typealias Create =
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        ) -> UnsafeMutableRawPointer?

    let plugin: UnsafeMutableRawPointer?
    let create: Create
    let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let step: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt64>?, Int64, Bool) -> Bool
    let finishCycle: @convention(c) (UnsafeMutableRawPointer?, Int64, beacond_fired_fn?, UnsafeMutableRawPointer?) -> Void
    let conditionValid: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt64>?, Int64) -> Bool
    let markDone: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt64>?, Int64) -> Void
    let stateDurability: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
    let saveState: @convention(c) (UnsafeMutableRawPointer?, beacond_state_fn?, UnsafeMutableRawPointer?) -> Void
    let restoreState:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafePointer<beacond_state_entry>?, Int,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        ) -> Int32
    typealias Describe =
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafePointer<UInt64>?, Int64, UnsafeMutablePointer<beacond_beacon_status>?,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        ) -> Bool
    /// `describe`, when the plugin's table has it (appended to version 2: optional).
    let describe: Describe?

    /// The size of version 2's first table, the least a plugin may give: up to `restore_state`.
    static let firstTableSize =
        MemoryLayout<beacond_strategy_functions>.offset(of: \beacond_strategy_functions.describe)
        ?? MemoryLayout<beacond_strategy_functions>.size

    /// Takes a plugin's table, or says which part of it is missing.
    init(plugin: UnsafeMutableRawPointer?, table: UnsafePointer<beacond_strategy_functions>?) throws(PluginTableError) {
        guard let table else { throw PluginTableError("no function table") }
        let expected = Self.firstTableSize
        // The size first, alone: a table from an older header is shorter than this one's struct.
        let size = Int(UnsafeRawPointer(table).load(as: UInt32.self))
        guard size >= expected else {
            throw PluginTableError(
                "its function table is \(size) bytes, \(expected) expected: "
                    + "rebuild the plugin against this beacond's beacond_plugin.h")
        }
        // Copy only as far as the plugin's table goes; what it does not have stays NULL.
        var t = beacond_strategy_functions()
        withUnsafeMutableBytes(of: &t) { copy in
            copy.copyMemory(from: UnsafeRawBufferPointer(start: table, count: min(size, copy.count)))
        }
        func required<F>(_ function: F?, _ name: String) throws(PluginTableError) -> F {
            guard let function else { throw PluginTableError("its function table has no \(name)") }
            return function
        }
        self.plugin = plugin
        create = try required(t.create, "create")
        destroy = try required(t.destroy, "destroy")
        step = try required(t.step, "step")
        finishCycle = try required(t.finish_cycle, "finish_cycle")
        conditionValid = try required(t.condition_valid, "condition_valid")
        markDone = try required(t.mark_done, "mark_done")
        stateDurability = try required(t.state_durability, "state_durability")
        saveState = try required(t.save_state, "save_state")
        restoreState = try required(t.restore_state, "restore_state")
        describe = t.describe // NULL in a table built before it
    }

    /// Asks the plugin for a new instance.
    func makeStrategy(key: String, parameters: ResolvedParameters) throws(StrategyConfigurationError) -> PluginStrategy {
        let json: String
        do {
            json = String(decoding: try JSONEncoder().encode(parameters.plainParameters), as: UTF8.self)
        } catch {
            throw .factoryFailed(strategy: key, message: "cannot encode parameters for the plugin: \(error)")
        }
        var error: UnsafeMutablePointer<CChar>?
        let instance = key.withCString { key in json.withCString { json in create(plugin, key, json, &error) } }
        guard let instance else {
            let message = error.map { String(cString: $0) } ?? "the plugin returned no instance"
            free(error)
            // The plugin reports configuration errors as JSON; anything else is passed on as text.
            if let decoded = try? JSONDecoder().decode(StrategyConfigurationError.self, from: Data(message.utf8)) {
                throw decoded
            }
            throw .factoryFailed(strategy: key, message: message)
        }
        return PluginStrategy(key: key, instance: instance, functions: self)
    }
}

/// What is wrong with a plugin's function table.
struct PluginTableError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
