import BeaconCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C functions a plugin registered for one strategy key. The pointers stay valid for the
/// life of the process (plugins are never unloaded) and the plugin's functions are reentrant,
/// hence `@unchecked Sendable`.
struct PluginFunctions: @unchecked Sendable {
    let plugin: UnsafeMutableRawPointer
    let create: StrategyPluginABI.CreateFunction
    let destroy: StrategyPluginABI.DestroyFunction
    let step: StrategyPluginABI.StepFunction
    let finishCycle: StrategyPluginABI.FinishCycleFunction
    let conditionValid: StrategyPluginABI.ConditionFunction
    let markDone: StrategyPluginABI.MarkDoneFunction

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
