import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconDevices
import BeaconForeignNodes
import BeaconPipeline
import BeaconRanging
import BeaconSimulator
import BeaconSite
import BeaconSiteReport
import BeaconStrategyKit
import BeaconWire

/// A whole simulated site in one process on virtual time: every gateway of a scenario with
/// rooms hears it through its own simulated radio and ranging, and a hub fuses their records
/// (rooms, positions) for the strategies and the engine — `beacond simulate` of a site.
///
/// The hub's gateways are the scenario's: its id is the gateway's name, with its room and
/// position. Deterministic: one scenario and seed give the same events.
///
/// A gateway with `kind: espresense` is an ESPresense node: each beacon advertisement it hears is
/// published as the firmware would (`ESPresenseMessage`, under its room's slug) and read and
/// ranged by the hub's node for it, as a live hub takes a real node's messages.
public final class SiteSimulation {
    /// What a finished run did.
    public struct Summary: Sendable {
        /// The simulators' counters, summed over the gateways.
        public var simulation: SimulationStatistics
        /// The hub pipeline's counters (its `site` holds the fusion's).
        public var hub: PipelineStatistics
        /// Virtual time covered.
        public var virtualDuration: Duration
    }

    /// The scenario.
    public let scenario: Scenario
    /// The seed of this run (the scenario's own unless overridden).
    public let seed: UInt64
    private let site: SiteRun
    /// The hub's pipeline.
    public var hub: AlertPipeline { site.hub }
    /// What the hub's self-calibration found.
    /// `nil` when the hub does not calibrate (it is off, or fewer than three gateways have a position).
    public var calibrationStatus: CalibrationStatus? { site.fusion.isCalibrating ? site.fusion.calibrationStatus : nil }
    /// The hub's layout: the scenario's gateways, and each of them as an anchor under the
    /// identity it advertises (the scenario's name is the site's).
    public let layout: SiteLayout
    /// Called with every report a gateway sends the hub: the gateway's name and its records.
    public var gatewayReports: ((_ gateway: String, _ records: [GatewayRecord]) -> Void)? {
        get { site.reportObserver }
        set { site.reportObserver = newValue }
    }

    /// Builds the gateways' pipelines and the hub's.
    /// - Parameters:
    ///   - scenario: a scenario with rooms (`Scenario.isSite`).
    ///   - seed: overrides the scenario's seed.
    ///   - ranging: every gateway's ranging.
    ///   - fusion: the hub's settings.
    ///   - alerts: the hub's alerts.
    ///   - registry: where their strategies come from.
    ///   - presence: when given, receives the presence lines of every fused cycle.
    ///   - beacons: the named beacons (`beacons:`): their names and tags in events and presence lines.
    ///   - people: the people (`people:`), placed by the hub from what they carry.
    ///   - devices: the enrolled phones and watches (`devices:`) every gateway resolves.
    /// - Throws: `SiteConfigurationError` for gateways that cannot make a site (a name that
    ///   cannot be an id), or what building the pipelines throws.
    public init(
        scenario: Scenario, seed: UInt64? = nil, ranging: RangingConfiguration = RangingConfiguration(),
        fusion: SiteFusionConfiguration = SiteFusionConfiguration(), alerts: [PipelineAlert],
        registry: StrategyRegistry, presence: ((String) -> Void)? = nil, beacons: BeaconDirectory = .empty,
        people: [Person] = [], devices: [EnrolledDevice] = []
    ) throws {
        self.scenario = scenario
        self.seed = seed ?? scenario.seed
        // Named by the scenario, the site gives every gateway the identity it advertises
        // (`SiteGatewayBeacon`), as an anchor at its position: heard when it has `advertise: true`.
        // The scenario's rooms are drawn for the hub too: on one floor all of them (a room no
        // gateway is in is then the grid filter's alone), on several those its gateways name.
        let gateways = scenario.gateways.map { gateway in
            SiteGateway(id: gateway.name, room: gateway.room, position: gateway.position, floor: gateway.floor)
        }
        let oneFloor = scenario.floors.count <= 1
        let outlines = scenario.rooms.filter { room in oneFloor || gateways.contains { $0.room == room.name } }.map { room in
            SiteRoomOutline(
                room: room.name,
                corners: SiteRoomOutline.rectangle(SIMD2(room.minimum.x, room.minimum.y), SIMD2(room.maximum.x, room.maximum.y)))
        }
        let layout = try SiteLayout(
            gateways: gateways, site: scenario.name, obstacles: scenario.obstacles, roomOutlines: outlines)
        self.layout = layout
        var settings = HubSettings(layout: layout, fusion: fusion)
        for gateway in scenario.gateways where gateway.kind == "espresense" {
            settings.foreignNodes[gateway.name] = ForeignNodeEndpoint(
                kind: .espresense, name: Self.slug(gateway.room ?? gateway.name))
        }
        foreignRooms = scenario.gateways.map { gateway in
            gateway.kind == "espresense" ? settings.foreignNodes[gateway.name]?.name : nil
        }
        site = try SiteRun(
            settings: settings, ranging: ranging, alerts: alerts, registry: registry, presence: presence, beacons: beacons,
            people: people, devices: devices)
    }

    /// Per gateway, the room slug it publishes under when it is an ESPresense node.
    private let foreignRooms: [String?]

    /// A room's name as ESPresense slugs it: lowercase, anything but letters and digits `_`.
    static func slug(_ room: String) -> String {
        String(room.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }

    /// An ESPresense node's packet: each beacon advertisement in it, published as the node would.
    private func publishAsNode(
        _ packet: UnsafeRawBufferPointer, at time: Timestamp, gateway: Int, room: String, emit: (RoutedEvent) throws -> Void
    ) throws {
        var messages: [(topic: String, payload: [UInt8])] = []
        try? HCIEventParser.forEachAdvertisingReport(inEvent: packet) { report in
            guard let sighting = BeaconSighting(report: report, timestamp: time), let rssi = sighting.rssi else { return }
            messages.append(
                ESPresenseMessage.device(
                    sighting.id, rssi: rssi, measuredPower: sighting.measuredPower, address: sighting.address, room: room))
        }
        for message in messages {
            try site.receive(message: message.payload, topic: message.topic, at: time, gateway: gateway, emit: emit)
        }
    }

    /// Makes the gateway named `gateway` stop reporting to the hub at `time` (as if it died): the
    /// hub marks it offline after `hub.gatewayOffline`. For tests of a site's failures.
    /// - Throws: `SiteConfigurationError` when the scenario has no such gateway.
    public func silence(gateway: String, from time: Timestamp) throws(SiteConfigurationError) {
        guard let index = scenario.gateways.firstIndex(where: { $0.name == gateway }) else {
            throw .invalid("no gateway '\(gateway)' in the scenario")
        }
        site.silenced[index] = time
    }

    /// Runs the scenario to its end, as fast as the CPU allows; alert events go to `emit`, in order.
    /// - Parameters:
    ///   - progress: called every 100 ms of virtual time with the time reached and the
    ///     simulators' counters so far.
    ///   - emit: receives every alert event, in order.
    public func run(
        progress: (Timestamp, SimulationStatistics) -> Void = { _, _ in }, emit: (RoutedEvent) throws -> Void
    ) throws -> Summary {
        var slices = Slices(scenario: scenario, seed: seed)
        while let horizon = try slices.next(into: self, emit: emit) { progress(horizon, slices.statistics) }
        try site.finish(at: scenario.end, emit: emit)
        return Summary(simulation: slices.statistics, hub: hub.statistics, virtualDuration: scenario.duration)
    }

    /// Runs the scenario's gateways only, `speed` times faster than real time (`nil`: as fast as
    /// the CPU allows): each 100 ms slice of virtual time, their reports go to `send` and the time
    /// reached to `advance`. The hub is the caller's — a daemon's, with its status page
    /// (`beacond simulate SITE --serve`); this simulation's own hub takes nothing.
    public func runGateways(
        speed: Double?, send: ([GatewayReportMessage]) async throws -> Void, advance: (Timestamp) async throws -> Void
    ) async throws {
        let buffer = ReportBuffer()
        site.forwardReports = { buffer.reports += $0 }
        defer { site.forwardReports = nil }
        var slices = Slices(scenario: scenario, seed: seed)
        let started = ContinuousClock.now
        while let horizon = try slices.next(into: self, emit: { _ in }) {
            if !buffer.reports.isEmpty {
                try await send(buffer.reports)
                buffer.reports.removeAll(keepingCapacity: true)
            }
            try await advance(horizon)
            if let speed, speed > 0 {
                // Paced on the wall clock, as a replay at a speed is: virtual time ÷ speed.
                try await Task.sleep(until: started + (horizon - scenario.start) / speed, clock: .continuous)
            }
        }
        try site.finish(at: scenario.end, emit: { _ in })
        if !buffer.reports.isEmpty { try await send(buffer.reports) }
        try await advance(scenario.end)
    }

    /// The reports of one slice, gathered for ``runGateways(speed:send:advance:)``.
    private final class ReportBuffer {
        var reports: [GatewayReportMessage] = []
    }

    /// The scenario's packets, 100 ms of virtual time at a time, from every gateway in time order.
    private struct Slices {
        var engines: [SimulationEngine]
        var batches: [PacketBatch]
        var order: [(timestamp: Timestamp, gateway: Int, index: Int)] = []
        var horizon: Timestamp
        let end: Timestamp
        var statistics = SimulationStatistics()

        init(scenario: Scenario, seed: UInt64) {
            engines = scenario.gateways.indices.map { SimulationEngine(scenario: scenario, gatewayIndex: $0, seed: seed) }
            batches = engines.map { _ in PacketBatch(byteCapacity: 1 << 14, packetCapacity: 256) }
            horizon = scenario.start
            end = scenario.end
        }

        /// Simulates the next slice into `simulation`'s gateways; the time reached, or `nil` at the end.
        mutating func next(into simulation: SiteSimulation, emit: (RoutedEvent) throws -> Void) throws -> Timestamp? {
            guard horizon < end else { return nil }
            horizon = min(horizon + .milliseconds(100), end)
            order.removeAll(keepingCapacity: true)
            for g in engines.indices {
                batches[g].removeAll()
                engines[g].fill(&batches[g], until: horizon)
                for (index, record) in batches[g].records.enumerated() { order.append((record.timestamp, g, index)) }
            }
            order.sort { $0.timestamp != $1.timestamp ? $0.timestamp < $1.timestamp : $0.gateway < $1.gateway }
            for packet in order {
                let record = batches[packet.gateway].records[packet.index]
                let start = Int(record.offset)
                try batches[packet.gateway].bytes.withUnsafeBytes { all in
                    let bytes = UnsafeRawBufferPointer(rebasing: all[start..<(start + Int(record.length))])
                    try simulation.receive(
                        bytes, linkType: record.linkType, at: record.timestamp, gateway: packet.gateway, emit: emit)
                }
            }
            statistics = engines.reduce(into: SimulationStatistics()) { total, engine in total.add(engine.statistics) }
            return horizon
        }
    }

    /// One packet heard by the gateway at index `gateway` (an ESPresense node's is published as
    /// the node would).
    private func receive(
        _ bytes: UnsafeRawBufferPointer, linkType: LinkType, at time: Timestamp, gateway: Int,
        emit: (RoutedEvent) throws -> Void
    ) throws {
        if let room = foreignRooms[gateway] {
            try publishAsNode(bytes, at: time, gateway: gateway, room: room, emit: emit)
        } else {
            try site.receive(bytes, linkType: linkType, at: time, gateway: gateway, emit: emit)
        }
    }
}
