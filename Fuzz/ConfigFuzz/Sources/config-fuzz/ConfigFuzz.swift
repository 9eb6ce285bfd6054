import BeaconConfiguration
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconSimulator
import BeaconStrategies
import BeaconStrategyKit

/// The strategies a configuration may name.
let registry = StrategyRegistry.builtIn()

/// One input: arbitrary bytes read as a configuration file and as a scenario, as `beacond run`,
/// `hub`, `check-config` and `simulate` read them — YAML, keys, typed values, then a pipeline
/// built from the alerts. Every failure must be a thrown `ConfigurationError` (or a pipeline
/// error), never a crash, a trap or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func configFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let node = try? ConfigNode(yaml: text, file: "fuzz.yaml") else { return 0 }
    if let configuration = try? GatewayConfiguration(node: node) {
        _ = try? AlertPipeline(configuration: configuration, registry: registry)
        if let hub = configuration.hub { _ = hub.buckets(of: configuration.site?.topics.bucketCount ?? 16) }
    }
    _ = try? Scenario.parse(yaml: text, file: "fuzz.yaml")
    return 0
}
