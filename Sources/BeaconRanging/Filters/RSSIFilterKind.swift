/// Which RSSI filter the ranging loop runs, with its parameters: the configuration's choice.
public enum RSSIFilterKind: Hashable, Sendable {
    /// AltBeacon's trimmed running average (``RunningAverageFilter``).
    case runningAverage(RunningAverageFilter.Configuration)
    /// AltBeacon's ARMA filter in floating point (``ARMAFilter``).
    case arma(ARMAFilter.Configuration)
    /// The 1-D Kalman filter (``KalmanFilter``).
    case kalman(KalmanFilter.Configuration)
    /// The 1€ filter (``OneEuroFilter``).
    case oneEuro(OneEuroFilter.Configuration)
    /// The adaptive percentile (``PercentileFilter``).
    case percentile(PercentileFilter.Configuration)

    /// Every filter with its published defaults, in documentation order.
    public static let allDefaults: [RSSIFilterKind] = [
        .runningAverage(.init()), .arma(.init()), .kalman(.init()), .oneEuro(.init()), .percentile(.init()),
    ]

    /// The names accepted by ``init(name:)``.
    public static var names: [String] { allDefaults.map(\.name) }

    /// The filter's configuration name: `running-average`, `arma`, `kalman`, `one-euro`, `percentile`.
    public var name: String {
        switch self {
        case .runningAverage: "running-average"
        case .arma: "arma"
        case .kalman: "kalman"
        case .oneEuro: "one-euro"
        case .percentile: "percentile"
        }
    }

    /// The filter named `name`, with its published defaults; `nil` for an unknown name.
    public init?(name: some StringProtocol) {
        guard let match = Self.allDefaults.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = match
    }

    /// A new, empty filter of this kind.
    public func makeFilter() -> AnyRSSIFilter { AnyRSSIFilter(self) }
}
