#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The few libm functions the radio model needs, behind names that keep the call sites short.

@usableFromInline @inline(__always) func _log(_ x: Double) -> Double { log(x) }
@usableFromInline @inline(__always) func _log10(_ x: Double) -> Double { log10(x) }
@usableFromInline @inline(__always) func _cos(_ x: Double) -> Double { cos(x) }
@usableFromInline @inline(__always) func _pow10(_ x: Double) -> Double { pow(10, x) }
