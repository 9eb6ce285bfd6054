/// The C-level contract between `beacond` and a strategy plugin (a shared library).
///
/// Nothing Swift-typed crosses the boundary: a plugin links its own copy of BeaconAlerting,
/// whose types are distinct from the host's, so the two sides exchange only C scalars, C
/// strings (UTF-8 JSON) and opaque pointers. A plugin exports
///
/// ```c
/// int32_t beacond_register_strategies(uint32_t host_abi_version, uint32_t *plugin_abi_version,
///                                     void *registrar, beacond_register_fn register_fn);
/// ```
///
/// which checks the version and calls `register_fn` once per strategy with the registration
/// (JSON: key, summary, parameters) and the functions that create, drive and destroy instances.
/// Plugins written in Swift do all of this with ``StrategyPluginExport/register(_:hostABIVersion:pluginABIVersion:registrar:register:)``.
///
/// A beacon crosses as ``beaconWordCount`` 64-bit words (see `RangedBeacon+PluginWords.swift`),
/// a beacon identity as ``identityWordCount`` words, times as nanoseconds since the epoch.
public enum StrategyPluginABI {
    /// The version of this contract; a plugin built against another version refuses to load.
    public static let version: UInt32 = 1
    /// The name of the entry point a plugin exports.
    public static let entryPointSymbol = "beacond_register_strategies"
    /// Words per encoded beacon.
    public static let beaconWordCount = 17
    /// Words per encoded identity.
    public static let identityWordCount = 4

    /// Return codes of the entry point.
    public enum Status: Int32, Sendable {
        case ok = 0
        case abiMismatch = 1
        case registrationFailed = 2
    }

    /// `void *create(void *plugin, const char *key, const char *parameters_json, char **error)`:
    /// a new instance, or NULL with a `malloc`ed message in `*error`.
    public typealias CreateFunction =
        @convention(c) (
            UnsafeMutableRawPointer, UnsafePointer<CChar>, UnsafePointer<CChar>,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
        ) -> UnsafeMutableRawPointer?
    /// `void destroy(void *instance)`.
    public typealias DestroyFunction = @convention(c) (UnsafeMutableRawPointer) -> Void
    /// `bool step(void *instance, const uint64_t *beacon, int64_t now, bool evaluate)`: updates the
    /// beacon; when `evaluate`, also fires if ready (marking the action done) and returns whether it fired.
    public typealias StepFunction = @convention(c) (UnsafeMutableRawPointer, UnsafePointer<UInt64>, Int64, Bool) -> Bool
    /// `void fired(void *context, const uint64_t *identity)`: the host's callback for finish_cycle.
    public typealias FiredFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt64>) -> Void
    /// `void finish_cycle(void *instance, int64_t now, beacond_fired_fn fired, void *context)`.
    public typealias FinishCycleFunction =
        @convention(c) (UnsafeMutableRawPointer, Int64, FiredFunction, UnsafeMutableRawPointer?) -> Void
    /// `bool condition_valid(void *instance, const uint64_t *identity, int64_t now)`.
    public typealias ConditionFunction = @convention(c) (UnsafeMutableRawPointer, UnsafePointer<UInt64>, Int64) -> Bool
    /// `void mark_done(void *instance, const uint64_t *identity, int64_t now)`.
    public typealias MarkDoneFunction = @convention(c) (UnsafeMutableRawPointer, UnsafePointer<UInt64>, Int64) -> Void

    /// `int32_t register_fn(void *registrar, const char *registration_json, void *plugin, create,
    /// destroy, step, finish_cycle, condition_valid, mark_done)`: 0 on success.
    public typealias RegisterFunction =
        @convention(c) (
            UnsafeMutableRawPointer, UnsafePointer<CChar>, UnsafeMutableRawPointer,
            CreateFunction, DestroyFunction, StepFunction, FinishCycleFunction, ConditionFunction, MarkDoneFunction
        ) -> Int32

    /// The entry point's type.
    public typealias EntryPoint =
        @convention(c) (
            UInt32, UnsafeMutablePointer<UInt32>, UnsafeMutableRawPointer, RegisterFunction
        ) -> Int32
}
