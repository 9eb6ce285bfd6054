extension GatewayConfiguration {
    /// This configuration as a site hub's (`beacond hub`): its `source:` left out (or `hub`),
    /// with `site:` and `gateways:`; the source is set to ``SourceDefinition/hub``.
    /// - Parameter file: the configuration's path, for the message.
    /// - Throws: ``HubConfigurationError`` saying what a hub's file needs.
    public func asHub(file: String) throws(HubConfigurationError) -> GatewayConfiguration {
        if let source, source != .hub {
            throw HubConfigurationError(
                "\(file): source: \(source) — a hub's input is its gateways' reports: leave source: out (or write source: hub), or use beacond run"
            )
        }
        guard site != nil, hub != nil else {
            throw HubConfigurationError(
                "\(file): a hub needs site: {name: …, broker: {host: …, port: …}} and gateways: [{id: …, room: …, position: [x, y, z]}, …] (see Docs/Site.md)"
            )
        }
        var hub = self
        hub.source = .hub
        return hub
    }
}
