/// How fast virtual time runs against the injected clock.
public enum SimulationSpeed: Hashable, Sendable, CustomStringConvertible {
    /// As fast as the CPU allows (never sleeps).
    case max
    /// `factor` seconds of virtual time per second of the clock (1 = real time, for demos).
    case factor(Double)
    /// Virtual time is the wall clock's: each batch is delivered when the wall clock reads its
    /// time, so separate processes running one scenario (a site's gateways) hear it in step. A
    /// scenario whose start has passed is moved to start at the next whole second.
    case wallClock

    /// Parses `max`, `wall` or a positive number.
    public init?(_ text: String) {
        switch text {
        case "max":
            self = .max
            return
        case "wall":
            self = .wallClock
            return
        default:
            break
        }
        guard let value = Double(text), value > 0, value.isFinite else { return nil }
        self = .factor(value)
    }

    public var description: String {
        switch self {
        case .max: "max"
        case .factor(let factor): "\(factor)x"
        case .wallClock: "wall clock"
        }
    }
}
