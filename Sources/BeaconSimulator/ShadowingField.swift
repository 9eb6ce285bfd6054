import BeaconCore

/// Shadowing that belongs to a place: a smooth random field over the floor, one per gateway, so
/// that a tag standing still keeps the same few dB of excess loss to each gateway, and a tag a
/// metre away has nearly the same — as walls, shelves and bodies make it on a real site, and as
/// independent draws per reception (``RadioModel/shadowingSigma``) do not.
///
/// A sum of `components` cosines with random directions, wave numbers and phases (random Fourier
/// features): Gaussian in distribution with standard deviation `sigma`, and correlated over
/// distance r as exp(−r² / 2ℓ²), ℓ the `correlationLength`. Deterministic for a seed and stream.
public struct ShadowingField: Hashable, Sendable {
    let waveX: [Double]
    let waveY: [Double]
    let phases: [Double]
    let amplitude: Double

    /// A field of `sigma` dB and `correlationLength` metres drawn from (`seed`, `stream`).
    public init(sigma: Double, correlationLength: Double, seed: UInt64, stream: UInt64, components: Int = 24) {
        var random = SplitMix64.derived(seed: seed, stream: stream)
        var waveX: [Double] = []
        var waveY: [Double] = []
        var phases: [Double] = []
        for _ in 0..<components {
            waveX.append(random.nextGaussian() / correlationLength)
            waveY.append(random.nextGaussian() / correlationLength)
            phases.append(random.nextUnit() * 2 * Double.pi)
        }
        self.waveX = waveX
        self.waveY = waveY
        self.phases = phases
        amplitude = sigma * (2 / Double(components)).squareRoot()
    }

    /// The field's value at (`x`, `y`), dB (added to the mean received power).
    public func value(x: Double, y: Double) -> Double {
        var sum = 0.0
        for i in waveX.indices { sum += cosine(waveX[i] * x + waveY[i] * y + phases[i]) }
        return amplitude * sum
    }
}
