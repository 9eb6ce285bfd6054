import CBeacondPlugin

/// The C-level contract between `beacond` and a strategy plugin (a shared library), as declared
/// in `beacond_plugin.h` (module `CBeacondPlugin`), which is the reference for plugins in any
/// language.
///
/// Nothing Swift-typed crosses the boundary: a plugin links its own copy of the strategy kit,
/// whose types are distinct from the host's, so the two sides exchange only C scalars, C
/// strings (UTF-8 JSON) and opaque pointers. A plugin exports
///
/// ```c
/// int32_t beacond_register_strategies(uint32_t host_abi_version, uint32_t *plugin_abi_version,
///                                     void *registrar, beacond_register_fn register_fn);
/// ```
///
/// which checks the version and calls `register_fn` once per strategy with the registration
/// (JSON: key, summary, parameters) and a `beacond_strategy_functions` table that creates,
/// drives, saves, restores and destroys instances. Plugins written in Swift do all of this
/// with ``StrategyPluginExport/register(_:hostABIVersion:pluginABIVersion:registrar:register:)``.
///
/// A beacon crosses as ``beaconWordCount`` 64-bit words (see `RangedBeacon+PluginWords.swift`),
/// a beacon identity as ``identityWordCount`` words, times as nanoseconds since the epoch.
public enum StrategyPluginABI {
    /// The version of this contract (`BEACOND_PLUGIN_ABI_VERSION`); a plugin built against
    /// another version refuses to load.
    public static let version: UInt32 = BEACOND_PLUGIN_ABI_VERSION
    /// The name of the entry point a plugin exports.
    public static let entryPointSymbol = BEACOND_PLUGIN_ENTRY_POINT
    /// Words per encoded beacon.
    public static let beaconWordCount = Int(BEACOND_BEACON_WORDS)
    /// Words per encoded identity.
    public static let identityWordCount = Int(BEACOND_IDENTITY_WORDS)

    /// Return codes of the entry point (`enum beacond_plugin_status`).
    public enum Status: Int32, Sendable {
        case ok = 0
        case abiMismatch = 1
        case registrationFailed = 2
    }

    /// `beacond_register_fn`: the host's registrar callback.
    public typealias RegisterFunction = beacond_register_fn
    /// `beacond_strategy_functions`: the table of one strategy's functions.
    public typealias Functions = beacond_strategy_functions

    /// The entry point's type.
    public typealias EntryPoint =
        @convention(c) (UInt32, UnsafeMutablePointer<UInt32>?, UnsafeMutableRawPointer?, RegisterFunction?) -> Int32
}
