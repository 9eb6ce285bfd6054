import BeaconCore

/// Limits how far one sample may move from the previous (clamped) sample, in dB, so a single
/// wild reading cannot yank a filter. Usable in front of any filter via ``SpikeClampedFilter``.
public struct SpikeClamp: Hashable, Sendable {
    /// The largest allowed change per sample (dB); `.infinity` disables the clamp.
    public let maxStep: Double
    private var previous: Double?

    /// Creates a clamp allowing at most `maxStep` dB per sample.
    public init(maxStep: Double) { self.maxStep = maxStep }

    /// Returns `rssi` limited to `previous ± maxStep` and remembers it.
    public mutating func clamp(_ rssi: Double) -> Double {
        var value = rssi
        if let previous { value = min(previous + maxStep, max(previous - maxStep, rssi)) }
        previous = value
        return value
    }

    /// Forgets the previous sample.
    public mutating func reset() { previous = nil }
}

/// Any filter with a ``SpikeClamp`` in front of it.
public struct SpikeClampedFilter<Base: RSSIFilter>: RSSIFilter {
    /// The filter that receives the clamped samples.
    public private(set) var base: Base
    /// The clamp applied to each sample first.
    public private(set) var clamp: SpikeClamp

    /// Wraps `base`, limiting each sample to `maxStep` dB from the previous one.
    public init(_ base: Base, maxStep: Double) {
        self.base = base
        self.clamp = SpikeClamp(maxStep: maxStep)
    }

    public mutating func add(_ rssi: Double, at time: Timestamp) {
        base.add(clamp.clamp(rssi), at: time)
    }

    public var estimate: Double? { base.estimate }

    public mutating func reset() {
        base.reset()
        clamp.reset()
    }
}
