import BeaconCore
import BeaconStrategyKit
import CBeacondPlugin
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loads strategy plugins (shared libraries exporting `beacond_register_strategies`) into a
/// registry. The library stays loaded for the life of the process.
public enum StrategyPluginLoader {
    /// Loads the plugin at `path` and adds its strategies to `registry` (all or none). Returns
    /// the keys it added. `hostABIVersion` exists for tests of the version check.
    @discardableResult
    public static func load(
        path: String, into registry: inout StrategyRegistry,
        hostABIVersion: UInt32 = StrategyPluginABI.version
    ) throws(StrategyPluginError) -> [String] {
        #if canImport(Glibc) || canImport(Darwin)
        guard access(path, F_OK) == 0 else { throw .fileMissing(path: path) }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw .notASharedLibrary(path: path, reason: dlerror().map { String(cString: $0) } ?? "unknown error")
        }
        guard let symbol = dlsym(handle, StrategyPluginABI.entryPointSymbol) else {
            dlclose(handle)
            throw .symbolMissing(path: path, symbol: StrategyPluginABI.entryPointSymbol)
        }
        let entryPoint = unsafeBitCast(symbol, to: StrategyPluginABI.EntryPoint.self)
        let collector = RegistrationCollector()
        var pluginVersion: UInt32 = 0
        let status = withExtendedLifetime(collector) {
            entryPoint(
                hostABIVersion, &pluginVersion, Unmanaged.passUnretained(collector).toOpaque(),
                registerPluginStrategy)
        }
        switch StrategyPluginABI.Status(rawValue: status) {
        case .ok:
            break
        case .abiMismatch:
            throw .abiMismatch(path: path, host: hostABIVersion, plugin: pluginVersion)
        case .registrationFailed, nil:
            throw .registrationFailed(path: path, reason: collector.failure ?? "the plugin returned status \(status)")
        }
        var updated = registry
        for registration in collector.registrations {
            do { try updated.register(registration) } catch {
                throw .registrationFailed(path: path, reason: error.description)
            }
        }
        registry = updated
        return collector.registrations.map(\.key)
        #else
        throw .unsupportedPlatform
        #endif
    }
}

/// Gathers the registrations a plugin's entry point hands over.
private final class RegistrationCollector {
    var registrations: [StrategyRegistration] = []
    var failure: String?
}

private func registerPluginStrategy(
    _ registrar: UnsafeMutableRawPointer?, _ json: UnsafePointer<CChar>?, _ plugin: UnsafeMutableRawPointer?,
    _ table: UnsafePointer<beacond_strategy_functions>?
) -> Int32 {
    guard let registrar else { return 1 }
    let collector = Unmanaged<RegistrationCollector>.fromOpaque(registrar).takeUnretainedValue()
    do {
        guard let json else { throw PluginTableError("no registration JSON") }
        let document = try JSONDecoder().decode(PluginRegistrationDocument.self, from: Data(String(cString: json).utf8))
        let functions: PluginFunctions
        do { functions = try PluginFunctions(plugin: plugin, table: table) } catch {
            throw PluginTableError("strategy \(document.key): \(error)")
        }
        let key = document.key
        collector.registrations.append(
            StrategyRegistration(
                key: key, summary: document.summary, parameters: try document.declarations()
            ) { parameters, _ in
                try functions.makeStrategy(key: key, parameters: parameters)
            })
        return 0
    } catch {
        collector.failure = "\(error)"
        return 1
    }
}
