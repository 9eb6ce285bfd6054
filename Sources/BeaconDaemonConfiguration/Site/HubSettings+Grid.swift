import BeaconConfiguration
import BeaconSite

extension HubSettings {
    /// `off`, `on`, or `{cellSize: 0.5, maxCells: 993, walkingSpeed: 4, stillShare: 0.2, sensitivity: -95,
    /// momentum: 1, lag: 2}` (`sensitivity: off`: misses are no evidence; `momentum: 0`: a random walk;
    /// `lag: 0`: no smoothed position).
    static func readGrid(_ node: ConfigNode) throws(ConfigurationError) -> GridTracking? {
        switch node.scalarText {
        case "off": return nil
        case "on": return GridTracking()
        case let other?: throw node.error("hub.position.grid is 'on', 'off' or a mapping of its settings, not '\(other)'")
        case nil: break
        }
        try node.checkKeys(
            allowed: ["cellSize", "maxCells", "walkingSpeed", "stillShare", "sensitivity", "momentum", "lag"],
            in: "hub.position.grid")
        var grid = GridTracking()
        if let n = node["cellSize"] { grid.cellSize = try n.number(in: 0.1...10, "a cell side from 0.1 to 10 m") }
        if let n = node["maxCells"] { grid.maxCells = try n.integer(in: 16...65_536) }
        if let n = node["walkingSpeed"] { grid.walkingSpeed = try n.number(in: 0.01...10, "a speed from 0.01 to 10 m/s") }
        if let n = node["stillShare"] { grid.stillShare = try n.number(in: 0...0.99, "a share from 0 to 0.99") }
        if let n = node["momentum"] { grid.momentum = try n.number(in: 0...1, "a share from 0 to 1") }
        if let n = node["lag"] { grid.lag = try n.integer(in: 0...10, "a whole number of steps from 0 to 10") }
        if let n = node["sensitivity"] {
            grid.sensitivity = n.scalarText == "off" ? nil : try n.number(in: -127...0, "off or an RSSI from -127 to 0 dBm")
        }
        return grid
    }
}
