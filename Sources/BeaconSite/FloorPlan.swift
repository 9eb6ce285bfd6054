/// A site's floor plan drawn under the status page's map: an image (PNG, JPEG or SVG) stretched
/// over the rectangle from ``min`` to ``max`` in site coordinates (metres, like the gateways'
/// positions). `hub: {floorPlan: {image: plan.png, min: [0, 0], max: [20, 12]}}`.
public struct FloorPlan: Sendable {
    /// The image file's path.
    public var image: String
    /// The site coordinates of the image's bottom-left corner.
    public var min: (x: Double, y: Double)
    /// The site coordinates of the image's top-right corner.
    public var max: (x: Double, y: Double)

    /// Creates a floor plan.
    public init(image: String, min: (x: Double, y: Double), max: (x: Double, y: Double)) {
        self.image = image
        self.min = min
        self.max = max
    }
}
