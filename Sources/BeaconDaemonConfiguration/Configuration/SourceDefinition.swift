import BeaconConfiguration

/// Where the daemon's advertisements come from (`source:` in the configuration).
///
/// Written as `simulate:FILE`, `replay:FILE` or `hci:hci0` (`hci` alone: the first adapter), or
/// as a mapping with one of those keys and an optional `speed` (`max` or a factor over real
/// time) for simulation and replay: `{replay: lobby.btsnoop, speed: 10}`. A simulation also takes
/// the scenario's `gateway` to be (its name; the first by default) and `speed: wall`, which runs
/// the scenario on the wall clock so that gateways in separate processes stay in step (see
/// ``simulate(path:speed:gateway:onWallClock:resume:startFile:)``); with it, `startFile: FILE`
/// holds the scenario back until FILE appears and starts it at the time FILE holds. A radio takes the
/// options of `beacond scan`: `{hci: hci0, active: true, interval: 100ms, window: 100ms,
/// watchdog: 60s, record: /var/lib/beacond/air.btsnoop}` (see ``HCISourceSettings``).
///
/// A simulation or a replay *resumes* by default: with a `state:` file that has seen part of
/// it, a restarted daemon starts where the saved state ends (what lies before is read, not
/// delivered nor paced), so a crash neither re-decides nor skips any of its time. `resume: false`
/// reads it from the start every time.
public enum SourceDefinition: Hashable, Sendable, CustomStringConvertible {
    /// A simulator scenario file, as heard by one of its gateways (`nil`: the first).
    ///
    /// `onWallClock`: the scenario's time is the wall clock's. Each batch is delivered when the
    /// wall clock reaches its time, so every process running the scenario hears the same thing at
    /// the same moment (a site's gateways, each in its own process); a scenario whose `start:`
    /// has passed is moved to start now.
    ///
    /// `resume`: start where a saved state ends (see above); on the wall clock the scenario's
    /// time is the clock's, so there is nothing to resume.
    ///
    /// `startFile` (on the wall clock only): the daemon runs, connects and says it is ready, and
    /// the scenario waits until this file appears; it then starts at the time the file holds (RFC
    /// 3339), or at the file's modification time when it is empty. Gateways in separate processes
    /// that read the same file start one walk together, released once all of them are ready.
    case simulate(
        path: String, speed: Double?, gateway: String? = nil, onWallClock: Bool = false, resume: Bool = true,
        startFile: String? = nil)
    /// A capture file (btsnoop, pcap, pcapng), replayed once; `resume`: start where a saved
    /// state ends (see above).
    case replay(path: String, speed: Double?, resume: Bool = true)
    /// A BlueZ HCI adapter and how to scan it.
    case hci(HCISourceSettings)
    /// A site hub: the site's gateways' reports, from the broker of `site:`.
    case hub

    /// A BlueZ HCI adapter (`nil`: the first one that is up) with the default scan settings.
    public static func hci(adapter: String?) -> SourceDefinition { .hci(HCISourceSettings(adapter: adapter)) }

    static let kinds = ["simulate", "replay", "hci", "hub"]

    /// The radio's recording (`record:`), if any.
    public var recordPath: String? {
        guard case .hci(let radio) = self else { return nil }
        return radio.record
    }

    /// Whether the source starts where a saved state ends (a simulation off the wall clock, or a
    /// replay, unless `resume: false`).
    public var resumes: Bool {
        switch self {
        case .simulate(_, _, _, let onWallClock, let resume, _): resume && !onWallClock
        case .replay(_, _, let resume): resume
        case .hci, .hub: false
        }
    }

    /// The source as written in configuration (`replay:FILE at 10x`).
    public var description: String {
        func pace(_ speed: Double?) -> String { speed.map { " at \($0)x" } ?? "" }
        switch self {
        case .simulate(let path, let speed, let gateway, let onWallClock, _, let startFile):
            return "simulate:\(path)" + (gateway.map { " (gateway \($0))" } ?? "")
                + (onWallClock ? " on the wall clock" : pace(speed)) + (startFile.map { ", started by \($0)" } ?? "")
        case .replay(let path, let speed, _): return "replay:\(path)" + pace(speed)
        case .hci(let radio): return "hci:" + (radio.adapter ?? "first adapter")
        case .hub: return "hub"
        }
    }

    /// Reads the definition at `node`.
    init(node: ConfigNode) throws(ConfigurationError) {
        if let text = node.scalarText {
            let (kind, argument) = Self.split(text)
            let path =
                kind == "simulate" || kind == "replay" ? argument.map { ConfigNode.resolve($0, against: node.file) } : argument
            self = try Self.make(kind: kind, argument: path, speed: nil, node: node)
            return
        }
        try node.checkKeys(allowed: Self.kinds + ["speed", "gateway", "resume", "startFile"] + HCISourceSettings.keys)
        let given = Self.kinds.filter { node[$0] != nil }
        guard given.count == 1, let kind = given.first else {
            throw node.error("give exactly one of \(Self.kinds.joined(separator: ", ")) (e.g. replay: capture.btsnoop)")
        }
        var speed: Double?
        var onWallClock = false
        if let speedNode = node["speed"] {
            if kind == "simulate", speedNode.scalarText?.lowercased() == "wall" {
                onWallClock = true
            } else if speedNode.scalarText?.lowercased() != "max" {
                let value = try speedNode.number()
                guard value > 0 else { throw speedNode.error("speed must be max or a positive factor, not \(value)") }
                speed = value
            }
        }
        let argumentNode = node[kind]!
        let argument = argumentNode.scalarText.map { $0.isEmpty || $0 == "~" ? nil : $0 } ?? nil
        self = try Self.make(
            kind: kind, argument: kind == "hci" || kind == "hub" ? argument : try argumentNode.filePath(), speed: speed,
            node: argumentNode)
        if case .simulate(let path, let speed, _, _, _, _) = self {
            let gateway = try node["gateway"]?.string()
            let startFile = try node["startFile"]?.filePath()
            if let startNode = node["startFile"], !onWallClock {
                throw startNode.error(
                    "startFile holds a scenario on the wall clock until the file appears: it needs speed: wall")
            }
            self = .simulate(
                path: path, speed: speed, gateway: gateway, onWallClock: onWallClock,
                resume: try node["resume"]?.bool() ?? true, startFile: startFile)
        } else if let startNode = node["startFile"] {
            throw startNode.error("startFile applies to simulate with speed: wall, not to \(kind)")
        } else if let gatewayNode = node["gateway"] {
            throw gatewayNode.error("gateway applies to simulate (which of the scenario's gateways to be), not to \(kind)")
        }
        if case .replay(let path, let speed, _) = self {
            self = .replay(path: path, speed: speed, resume: try node["resume"]?.bool() ?? true)
        } else if let resumeNode = node["resume"], kind != "simulate" {
            throw resumeNode.error("resume applies to simulate and replay (start where the saved state ends), not to \(kind)")
        }
        if case .hci = self {
            if speed != nil { throw node.error("speed applies to simulate and replay, not to a radio") }
            self = .hci(try HCISourceSettings(adapter: argument, node: node))
        } else if let radioKey = HCISourceSettings.keys.first(where: { node[$0] != nil }) {
            throw node[radioKey]!.error("\(radioKey) applies to a radio (hci:), not to \(kind)")
        }
    }

    private static func split(_ text: String) -> (String, String?) {
        guard let colon = text.firstIndex(of: ":") else { return (text, nil) }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    private static func make(
        kind: String, argument: String?, speed: Double?,
        node: ConfigNode
    ) throws(ConfigurationError) -> SourceDefinition {
        switch kind {
        case "simulate", "replay":
            guard let path = argument, !path.isEmpty else { throw node.error("\(kind) needs a file: \(kind):FILE") }
            return kind == "simulate" ? .simulate(path: path, speed: speed) : .replay(path: path, speed: speed)
        case "hci":
            return .hci(adapter: argument.flatMap { $0.isEmpty ? nil : $0 })
        case "hub":
            guard argument?.isEmpty ?? true else { throw node.error("hub takes no argument: write source: hub") }
            return .hub
        default:
            throw node.error("unknown source '\(kind)'; write simulate:FILE, replay:FILE, hci:hci0 or hub")
        }
    }
}
