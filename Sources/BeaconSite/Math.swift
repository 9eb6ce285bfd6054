#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Base-10 logarithm (the C library's `log10`).
@inline(__always)
func logarithm10(_ value: Double) -> Double { log10(value) }

/// 10 raised to `value`.
@inline(__always)
func exponent10(_ value: Double) -> Double { exp(value * naturalLogarithmOf10) }

/// ln 10.
let naturalLogarithmOf10 = 2.302_585_092_994_046
