import BeaconConfiguration
import BeaconRanging

extension RSSIFilterKind {
    /// The parameters each filter takes in the mapping form of `ranging.filter`.
    static let parameterKeys: [String: [String]] = [
        "running-average": ["window", "maxSamples"],
        "arma": ["speed"],
        "kalman": ["processNoise", "measurementNoise"],
        "one-euro": ["minCutoff", "beta", "derivativeCutoff"],
        "percentile": ["percentile", "window", "minSamples", "maxSamples"],
    ]

    /// Reads `filter: arma` (a name: the published defaults) or
    /// `filter: {kind: kalman, processNoise: 0.01, measurementNoise: 3}` (a name and parameters;
    /// those not given keep their defaults). Unknown names and keys are errors at their line.
    init(node: ConfigNode) throws(ConfigurationError) {
        let nameNode = node.isMapping ? try node.required("kind") : node
        let name = try nameNode.string()
        guard let kind = RSSIFilterKind(name: name) else {
            throw nameNode.error("unknown filter '\(name)'; valid: \(RSSIFilterKind.names.joined(separator: ", "))")
        }
        self = kind
        guard node.isMapping else { return }
        try node.checkKeys(allowed: ["kind"] + (Self.parameterKeys[kind.name] ?? []))
        func number(_ key: String, _ value: inout Double) throws(ConfigurationError) {
            if let given = node[key] { value = try given.number() }
        }
        func count(_ key: String, _ value: inout Int) throws(ConfigurationError) {
            if let given = node[key] { value = try given.integer(in: 1...1_000_000) }
        }
        func duration(_ key: String, _ value: inout Duration) throws(ConfigurationError) {
            if let given = node[key] { value = try given.duration() }
        }
        switch kind {
        case .runningAverage(var c):
            try duration("window", &c.window)
            try count("maxSamples", &c.maxSamples)
            self = .runningAverage(c)
        case .arma(var c):
            try number("speed", &c.speed)
            guard c.speed > 0, c.speed <= 1 else { throw node["speed"]!.error("speed must be in (0, 1], not \(c.speed)") }
            self = .arma(c)
        case .kalman(var c):
            try number("processNoise", &c.processNoise)
            try number("measurementNoise", &c.measurementNoise)
            self = .kalman(c)
        case .oneEuro(var c):
            try number("minCutoff", &c.minCutoff)
            try number("beta", &c.beta)
            try number("derivativeCutoff", &c.derivativeCutoff)
            self = .oneEuro(c)
        case .percentile(var c):
            try number("percentile", &c.percentile)
            try duration("window", &c.window)
            try count("minSamples", &c.minSamples)
            try count("maxSamples", &c.maxSamples)
            self = .percentile(c)
        }
    }
}
