import BeaconCore
import BeaconPipeline
import BeaconStrategyKit

/// One setting of the tuned parameters: the alert as it would be configured with these values.
public struct TuningCandidate: Hashable, Sendable {
    /// One tuned parameter's value in this candidate; `nil` leaves the parameter unset (its
    /// default, or off).
    public struct Setting: Hashable, Sendable {
        /// The parameter.
        public var name: String
        /// Its value here.
        public var value: ParameterValue?
    }

    /// 1 for the alert as configured, then 2, 3 … in the order they were drawn.
    public var number: Int
    /// The tuned parameters' values, in the order the parameters were given.
    public var settings: [Setting]

    /// The candidate's values as configuration writes them: `dwell=45s gap=5s`.
    public var label: String {
        settings.map { "\($0.name)=\($0.value?.configurationText ?? "(unset)")" }.joined(separator: " ")
    }

    /// `base` with this candidate's values in place of its own.
    public func alert(from base: PipelineAlert) -> PipelineAlert {
        var alert = base
        for setting in settings { alert.parameters[setting.name] = setting.value?.plainValue }
        return alert
    }

    /// The candidates a tune runs: the configured values first, then every combination of the
    /// parameters' values when there are at most `limit` of them, else `limit − 1` combinations
    /// drawn at random (SplitMix64 from `seed`, so a seed always draws the same ones).
    /// - Parameters:
    ///   - parameters: the tuned parameters and their values.
    ///   - configured: each tuned parameter's value in the alert as configured (nil: unset).
    ///   - limit: the most candidates to run (at least 1).
    ///   - seed: the draw's seed.
    public static func candidates(
        parameters: [TunedParameter], configured: [String: ParameterValue], limit: Int, seed: UInt64
    ) -> [TuningCandidate] {
        let first = parameters.map { Setting(name: $0.name, value: configured[$0.name]) }
        var chosen = [first]
        var seen: Set<[Setting]> = [first]
        let total = parameters.reduce(1.0) { $0 * Double(max($1.values.count, 1)) }
        // The configured values count once, among the combinations or beside them.
        let configuredIsCombination = zip(parameters, first).allSatisfy { parameter, setting in
            setting.value.map { parameter.values.contains($0) } ?? false
        }
        if total + (configuredIsCombination ? 0 : 1) <= Double(limit) {
            var combinations: [[Setting]] = [[]]
            for parameter in parameters {
                combinations = combinations.flatMap { prefix in
                    parameter.values.map { prefix + [Setting(name: parameter.name, value: $0)] }
                }
            }
            for combination in combinations where seen.insert(combination).inserted { chosen.append(combination) }
        } else {
            var random = SplitMix64.derived(seed: seed, stream: 0x7475_6E65) // "tune"
            var attempts = 0
            while chosen.count < limit, attempts < limit * 100 {
                attempts += 1
                let combination = parameters.map { parameter in
                    Setting(
                        name: parameter.name,
                        value: parameter.values.isEmpty
                            ? nil : parameter.values[Int(random.next() % UInt64(parameter.values.count))])
                }
                if seen.insert(combination).inserted { chosen.append(combination) }
            }
        }
        return chosen.prefix(max(1, limit)).enumerated().map { TuningCandidate(number: $0.offset + 1, settings: $0.element) }
    }
}
