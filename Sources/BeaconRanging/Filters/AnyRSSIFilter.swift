import BeaconCore

/// One of the built-in filters, chosen at run time by an ``RSSIFilterKind``, stored inline
/// (no existential box) and dispatched with a switch.
public struct AnyRSSIFilter: RSSIFilter {
    private enum Storage: Sendable {
        case runningAverage(RunningAverageFilter)
        case arma(ARMAFilter)
        case kalman(KalmanFilter)
        case oneEuro(OneEuroFilter)
        case percentile(PercentileFilter)
        /// Transient, while a payload is being mutated: keeps window buffers uniquely referenced.
        case moved
    }

    private var storage: Storage

    /// A new, empty filter of the given kind.
    public init(_ kind: RSSIFilterKind) {
        switch kind {
        case .runningAverage(let c): storage = .runningAverage(RunningAverageFilter(configuration: c))
        case .arma(let c): storage = .arma(ARMAFilter(configuration: c))
        case .kalman(let c): storage = .kalman(KalmanFilter(configuration: c))
        case .oneEuro(let c): storage = .oneEuro(OneEuroFilter(configuration: c))
        case .percentile(let c): storage = .percentile(PercentileFilter(configuration: c))
        }
    }

    public mutating func add(_ rssi: Double, at time: Timestamp) {
        switch storage {
        case .kalman(var f): f.add(rssi, at: time); storage = .kalman(f)
        case .arma(var f): f.add(rssi, at: time); storage = .arma(f)
        case .oneEuro(var f): f.add(rssi, at: time); storage = .oneEuro(f)
        case .runningAverage(var f):
            storage = .moved
            f.add(rssi, at: time)
            storage = .runningAverage(f)
        case .percentile(var f):
            storage = .moved
            f.add(rssi, at: time)
            storage = .percentile(f)
        case .moved: preconditionFailure("AnyRSSIFilter used while being mutated")
        }
    }

    public var estimate: Double? {
        switch storage {
        case .kalman(let f): f.estimate
        case .arma(let f): f.estimate
        case .oneEuro(let f): f.estimate
        case .runningAverage(let f): f.estimate
        case .percentile(let f): f.estimate
        case .moved: nil
        }
    }

    public mutating func reset() {
        switch storage {
        case .kalman(var f): f.reset(); storage = .kalman(f)
        case .arma(var f): f.reset(); storage = .arma(f)
        case .oneEuro(var f): f.reset(); storage = .oneEuro(f)
        case .runningAverage(var f): storage = .moved; f.reset(); storage = .runningAverage(f)
        case .percentile(var f): storage = .moved; f.reset(); storage = .percentile(f)
        case .moved: break
        }
    }
}
