#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The C library's few functions the package needs, under names that neither Foundation nor the
// platform's module has to be imported for: every module that computes with them imports BeaconCore.

/// Base-10 logarithm (the C library's `log10`).
@inlinable @inline(__always)
public func logarithm10(_ value: Double) -> Double { log10(value) }

/// Natural logarithm (the C library's `log`).
@inlinable @inline(__always)
public func naturalLogarithm(_ value: Double) -> Double { log(value) }

/// `base` raised to `exponent` (the C library's `pow`).
@inlinable @inline(__always)
public func power(_ base: Double, _ exponent: Double) -> Double { pow(base, exponent) }

/// e raised to `exponent` (the C library's `exp`, several times faster than `pow`).
@inlinable @inline(__always)
public func naturalExponential(_ exponent: Double) -> Double { exp(exponent) }

/// 10 raised to `exponent`, as `e^(exponent · ln 10)`: `exp` costs a fraction of `pow`, and the
/// two differ by a few units in the last place.
@inlinable @inline(__always)
public func powerOf10(_ exponent: Double) -> Double { exp(exponent * 2.302_585_092_994_046) }

/// ln 10: the derivative of `10·log10 x` is `10 / (x · ln 10)`.
public let naturalLogarithmOf10: Double = 2.302_585_092_994_046

/// The standard normal distribution's cumulative probability Φ(x) (from the C library's `erfc`).
@inlinable @inline(__always)
public func normalCDF(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }

/// The cosine of `radians` (the C library's `cos`).
@inlinable @inline(__always)
public func cosine(_ radians: Double) -> Double { cos(radians) }
