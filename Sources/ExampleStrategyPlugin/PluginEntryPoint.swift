import BeaconStrategyKit
import BeaconStrategyPlugins

/// The plugin's entry point: `beacond --plugin libExampleStrategyPlugin.so` finds it with
/// `dlsym` and calls it with its ABI version and a registrar.
@_cdecl("beacond_register_strategies")
public func beacondRegisterStrategies(
    _ hostABIVersion: UInt32, _ pluginABIVersion: UnsafeMutablePointer<UInt32>,
    _ registrar: UnsafeMutableRawPointer, _ register: StrategyPluginABI.RegisterFunction
) -> Int32 {
    var registry = StrategyRegistry()
    do {
        try registry.register(SightingCountStrategy.registration)
        try registry.register(QuietExit.registration)
    } catch {
        return StrategyPluginABI.Status.registrationFailed.rawValue
    }
    return StrategyPluginExport.register(
        registry, hostABIVersion: hostABIVersion, pluginABIVersion: pluginABIVersion,
        registrar: registrar, register: register)
}
