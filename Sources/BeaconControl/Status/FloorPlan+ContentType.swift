import BeaconSite

extension FloorPlan {
    /// The image's `Content-Type`, from its extension.
    var contentType: String {
        switch image.split(separator: ".").last?.lowercased() {
        case "svg": "image/svg+xml"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        default: "image/png"
        }
    }
}
