/// An opening in a walled room's outline, where people pass: the grid filter moves a beacon's
/// probability out of a walled room only through its doors (`Docs/Site.md`, "The floor plan").
///
/// ```yaml
/// rooms:
///   - {name: office, min: [0, 0], max: [6, 4], doors: [[6, 2], {at: [3, 0], width: 2}]}
/// ```
public struct SiteDoor: Hashable, Sendable {
    /// A door's width when the file gives none, metres.
    public static let defaultWidth = 1.0
    /// How far from the outline a door's centre may lie and still open it, metres.
    public static let tolerance = 0.5

    /// The door's centre, on the outline (site coordinates, metres).
    public var center: SIMD2<Double>
    /// Its width along the wall, metres.
    public var width: Double

    /// A door of `width` metres centred at `center`.
    public init(center: SIMD2<Double>, width: Double = Self.defaultWidth) {
        self.center = center
        self.width = width
    }
}
