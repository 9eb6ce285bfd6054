import BeaconCore

/// One of the built-in filters, chosen at run time by an ``RSSIFilterKind`` and dispatched with
/// a switch (no existential).
///
/// The small recursive filters (ARMA, Kalman) are stored inline; the 1€ filter and the windowed
/// filters live in a copy-on-write box allocated once, so the value stays a few words wide.
public struct AnyRSSIFilter: RSSIFilter {
    private enum Storage: Sendable {
        case arma(ARMAFilter)
        case kalman(KalmanFilter)
        case oneEuro(FilterBox<OneEuroFilter>)
        case runningAverage(FilterBox<RunningAverageFilter>)
        case percentile(FilterBox<PercentileFilter>)
        /// Transient, while a boxed filter is being mutated (keeps its box uniquely referenced).
        case moved
    }

    private var storage: Storage

    /// A new, empty filter of the given kind.
    public init(_ kind: RSSIFilterKind) {
        switch kind {
        case .arma(let c): storage = .arma(ARMAFilter(configuration: c))
        case .kalman(let c): storage = .kalman(KalmanFilter(configuration: c))
        case .oneEuro(let c): storage = .oneEuro(FilterBox(OneEuroFilter(configuration: c)))
        case .runningAverage(let c): storage = .runningAverage(FilterBox(RunningAverageFilter(configuration: c)))
        case .percentile(let c): storage = .percentile(FilterBox(PercentileFilter(configuration: c)))
        }
    }

    public mutating func add(_ rssi: Double, at time: Timestamp) {
        switch storage {
        case .arma(var f):
            f.add(rssi, at: time)
            storage = .arma(f)
        case .kalman(var f):
            f.add(rssi, at: time)
            storage = .kalman(f)
        case .oneEuro(var box):
            storage = .moved
            Self.unique(&box).value.add(rssi, at: time)
            storage = .oneEuro(box)
        case .runningAverage(var box):
            storage = .moved
            Self.unique(&box).value.add(rssi, at: time)
            storage = .runningAverage(box)
        case .percentile(var box):
            storage = .moved
            Self.unique(&box).value.add(rssi, at: time)
            storage = .percentile(box)
        case .moved: preconditionFailure("AnyRSSIFilter used while being mutated")
        }
    }

    public var estimate: Double? {
        switch storage {
        case .arma(let f): f.estimate
        case .kalman(let f): f.estimate
        case .oneEuro(let box): box.value.estimate
        case .runningAverage(let box): box.value.estimate
        case .percentile(let box): box.value.estimate
        case .moved: nil
        }
    }

    public mutating func reset() {
        switch storage {
        case .arma(var f):
            f.reset()
            storage = .arma(f)
        case .kalman(var f):
            f.reset()
            storage = .kalman(f)
        case .oneEuro(var box):
            storage = .moved
            Self.unique(&box).value.reset()
            storage = .oneEuro(box)
        case .runningAverage(var box):
            storage = .moved
            Self.unique(&box).value.reset()
            storage = .runningAverage(box)
        case .percentile(var box):
            storage = .moved
            Self.unique(&box).value.reset()
            storage = .percentile(box)
        case .moved: break
        }
    }

    /// `box`, copied first if another filter value shares it.
    @inline(__always)
    private static func unique<F>(_ box: inout FilterBox<F>) -> FilterBox<F> {
        if !isKnownUniquelyReferenced(&box) { box = FilterBox(box.value) }
        return box
    }
}
