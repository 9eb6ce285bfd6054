#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `base` raised to `exponent` (the C library's `pow`).
@inline(__always)
func power(_ base: Double, _ exponent: Double) -> Double { pow(base, exponent) }

/// Base-10 logarithm (the C library's `log10`).
@inline(__always)
func logarithm10(_ value: Double) -> Double { log10(value) }
