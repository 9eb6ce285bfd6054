import BeaconCore
import BeaconStrategies
import BeaconStrategyKit

/// An example of a plugin strategy assembled from stock parts: an exit alert that stays quiet
/// for `period` after each alert (exit wrapped in a cooldown).
enum QuietExit {
    static let registration = StrategyRegistration(
        key: "quiet-exit",
        summary: "Example plugin strategy: exit after `away`, at most one alert per beacon per `period`.",
        parameters: [
            ParameterDeclaration(
                "away", .duration, default: .duration(.seconds(30)), "How long unseen before the beacon counts as gone."),
            ParameterDeclaration("period", .duration, default: .duration(.seconds(600)), "The quiet period after an alert."),
        ]
    ) { parameters, _ in
        CooldownAlertStrategy(
            ExitAlertStrategy(.init(away: try parameters.duration("away"))),
            period: try parameters.duration("period"))
    }
}
