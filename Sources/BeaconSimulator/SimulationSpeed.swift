/// How fast virtual time runs against the injected clock.
public enum SimulationSpeed: Hashable, Sendable, CustomStringConvertible {
    /// As fast as the CPU allows (never sleeps).
    case max
    /// `factor` seconds of virtual time per second of the clock (1 = real time, for demos).
    case factor(Double)

    /// Parses `max` or a positive number.
    public init?(_ text: String) {
        if text == "max" {
            self = .max
            return
        }
        guard let value = Double(text), value > 0, value.isFinite else { return nil }
        self = .factor(value)
    }

    public var description: String {
        switch self {
        case .max: "max"
        case .factor(let factor): "\(factor)x"
        }
    }
}
