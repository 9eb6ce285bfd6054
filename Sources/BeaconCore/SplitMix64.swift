#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small, fast, seedable pseudo-random generator (Steele, Lea & Flood's SplitMix64).
///
/// Every random draw of the simulator comes from generators of this type seeded from the
/// scenario's seed, so one seed always gives the same run, on every platform; seeded tests use
/// it too. Never `SystemRandomNumberGenerator` where a result must replay.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state.
    public var state: UInt64
    /// The second normal deviate of the last polar-method pair, not yet returned (NaN: none).
    public var spareGaussian: Double = .nan

    /// Creates a generator from a seed.
    @inlinable
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1) with 53 random bits.
    @inlinable
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform double in (0, 1] (safe to take the logarithm of).
    @inlinable
    public mutating func nextOpenUnit() -> Double {
        Double((next() >> 11) &+ 1) * 0x1.0p-53
    }

    /// A standard normal deviate (Marsaglia's polar method: deviates come in pairs, the second
    /// is kept for the next call).
    @inlinable
    public mutating func nextGaussian() -> Double {
        if !spareGaussian.isNaN {
            defer { spareGaussian = .nan }
            return spareGaussian
        }
        while true {
            let u = nextUnit() * 2 - 1
            let v = nextUnit() * 2 - 1
            let s = u * u + v * v
            if s > 0 && s < 1 {
                let scale = (-2 * log(s) / s).squareRoot()
                spareGaussian = v * scale
                return u * scale
            }
        }
    }

    /// A generator for a sub-stream: deterministic in (this seed, `stream`), independent-looking
    /// for different streams. Lets each gateway or beacon own its draws.
    @inlinable
    public static func derived(seed: UInt64, stream: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        return SplitMix64(seed: mixer.next())
    }
}
