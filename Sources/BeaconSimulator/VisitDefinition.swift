/// What counts as a visit: a beacon within `radius` metres of a gateway for at least `minimumDuration`.
public struct VisitDefinition: Hashable, Sendable {
    /// Largest true distance that counts as "near", metres.
    public var radius: Double
    /// Shortest stay within the radius that counts as a visit.
    public var minimumDuration: Duration

    /// Creates a visit definition.
    public init(radius: Double = 3, minimumDuration: Duration = .seconds(60)) {
        self.radius = radius
        self.minimumDuration = minimumDuration
    }
}
