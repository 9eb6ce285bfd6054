extension AdvertisingReportKind {
    /// ``name`` as a static string, for ``OutputBuffer``.
    var staticName: StaticString {
        switch self {
        case .legacy: "legacy"
        case .directed: "directed"
        case .extended: "extended"
        case .linkLayer: "link_layer"
        }
    }
}
