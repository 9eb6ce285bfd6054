/// Why a strategy plugin could not be loaded. Each message names the file and what to do.
public enum StrategyPluginError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No file at the path.
    case fileMissing(path: String)
    /// The file exists but the dynamic loader refused it (not a shared library, wrong
    /// architecture, missing dependency …); `reason` is the loader's message.
    case notASharedLibrary(path: String, reason: String)
    /// The library does not export the entry point.
    case symbolMissing(path: String, symbol: String)
    /// The plugin was built against another version of the plugin ABI.
    case abiMismatch(path: String, host: UInt32, plugin: UInt32)
    /// The plugin's registrations were refused (bad registration, duplicate key …).
    case registrationFailed(path: String, reason: String)
    /// This platform has no dynamic loader support.
    case unsupportedPlatform

    public var description: String {
        switch self {
        case .fileMissing(let path):
            "strategy plugin \(path): no such file; check the --plugin path"
        case .notASharedLibrary(let path, let reason):
            "strategy plugin \(path): cannot be loaded as a shared library (\(reason)); build it as a "
                + ".library(type: .dynamic) product for this platform"
        case .symbolMissing(let path, let symbol):
            "strategy plugin \(path): does not export \(symbol); define it with @_cdecl(\"\(symbol)\")"
        case .abiMismatch(let path, let host, let plugin):
            "strategy plugin \(path): built for plugin ABI version \(plugin), but this beacond speaks version "
                + "\(host); rebuild the plugin against this version's beacond_plugin.h (or BeaconStrategyPlugins)"
        case .registrationFailed(let path, let reason):
            "strategy plugin \(path): registration failed: \(reason)"
        case .unsupportedPlatform:
            "strategy plugins are not supported on this platform"
        }
    }
}
