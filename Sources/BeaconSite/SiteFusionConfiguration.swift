import BeaconCore
import BeaconRanging
import BeaconSiteReport

/// How a site hub fuses its gateways' records. Defaults are chosen on real multi-scanner
/// recordings (`Docs/Site.md`, "Choosing the defaults").
public struct SiteFusionConfiguration: Hashable, Sendable {
    /// The hub's cycle: one fused update of every beacon per cycle (default 1 s, the gateways').
    public var cycleLength: Duration
    /// How long after a cycle's end the hub waits for its records before fusing it (default 1 s):
    /// records arriving later still count for the next cycles. At most two cycles.
    public var lateness: Duration
    /// How old a gateway's latest record may be and still count as evidence (default 3 s): a
    /// gateway that stops reporting a beacon drops out after this.
    public var staleness: Duration
    /// A beacon no gateway has reported for this long is forgotten (default 30 s).
    public var retention: Duration
    /// Room decisions.
    public var room: RoomHysteresis
    /// Position estimates.
    public var positioning: PositioningConfiguration
    /// Proximity bands applied to the distance to the nearest gateway.
    public var proximity: ProximityBands
    /// The most beacons fused at once; beyond it new beacons are refused and counted (default 200,000).
    public var maxTracked: Int
    /// The most records one report may carry; a longer one is refused whole (default 4,096, the
    /// most a gateway puts in one report).
    public var maxRecordsPerReport: Int
    /// The most beacons one gateway may bring into the fusion; beyond it that gateway's records
    /// of new beacons are refused and counted (default 20,000), so a gateway gone wrong, or one
    /// impersonated, cannot fill the hub.
    public var maxBeaconsPerGateway: Int
    /// How far below a gateway's clock offset a report's may fall before the report is refused as
    /// claiming a time the gateway's other reports contradict (default 5 s; see `GatewayClock`).
    public var clockTolerance: Duration
    /// How far the time a signed report was sealed at (its sequence) may lie from the hub's
    /// clock (default 60 s): older ones are refused as replays. Signing gateways need clocks set
    /// by NTP to this precision.
    public var signatureWindow: Duration
    /// Self-calibration of the radio model (on by default).
    public var calibration: SelfCalibration
    /// A gateway no report has come from for this long is offline (default `nil`: the longer of
    /// 10 s and three times ``staleness``): its rooms' silence no longer counts as absence, and
    /// a beacon whose room has only offline gateways becomes unknown.
    public var gatewayOffline: Duration?

    /// ``gatewayOffline``, or its default.
    public var gatewayOfflineAfter: Duration { gatewayOffline ?? max(.seconds(10), staleness * 3) }

    /// Creates a configuration.
    public init(
        cycleLength: Duration = .seconds(1), lateness: Duration = .seconds(1), staleness: Duration = .seconds(3),
        retention: Duration = .seconds(30), room: RoomHysteresis = RoomHysteresis(),
        positioning: PositioningConfiguration = PositioningConfiguration(), proximity: ProximityBands = ProximityBands(),
        maxTracked: Int = 200_000, maxRecordsPerReport: Int = GatewayReportEncoder.recordsPerReport,
        maxBeaconsPerGateway: Int = 20_000, clockTolerance: Duration = .seconds(5), signatureWindow: Duration = .seconds(60),
        calibration: SelfCalibration = SelfCalibration()
    ) {
        self.calibration = calibration
        self.cycleLength = cycleLength
        self.lateness = lateness
        self.staleness = staleness
        self.retention = retention
        self.room = room
        self.positioning = positioning
        self.proximity = proximity
        self.maxTracked = maxTracked
        self.maxRecordsPerReport = maxRecordsPerReport
        self.maxBeaconsPerGateway = maxBeaconsPerGateway
        self.clockTolerance = clockTolerance
        self.signatureWindow = signatureWindow
        self.gatewayOffline = nil
    }

    /// Checks every value against its range, naming the key.
    public func validate() throws(SiteConfigurationError) {
        guard cycleLength >= .milliseconds(100) else { throw .invalid("hub.cycle must be at least 100ms") }
        guard lateness >= .zero, lateness <= cycleLength * 2 else {
            throw .invalid("hub.lateness must be from 0 to two cycles (\(cycleLength * 2))")
        }
        guard staleness >= cycleLength, staleness <= cycleLength * 60 else {
            throw .invalid("hub.staleness must be from one cycle to 60 cycles")
        }
        guard retention >= staleness else { throw .invalid("hub.retention must be at least hub.staleness") }
        guard room.margin >= 0, room.margin <= 40 else { throw .invalid("hub.room.margin must be from 0 to 40 dB") }
        guard room.minimumDwell >= .zero else { throw .invalid("hub.room.minDwell must not be negative") }
        guard room.floorMargin >= 0, room.floorMargin <= 60 else {
            throw .invalid("hub.room.floorMargin must be from 0 to 60 dB")
        }
        guard room.floorMinimumDwell >= .zero else { throw .invalid("hub.room.floorMinDwell must not be negative") }
        guard (-127...20).contains(room.minimumRSSI) else { throw .invalid("hub.room.minRSSI must be from -127 to 20 dBm") }
        guard (0...1).contains(room.minimumConfidence) else { throw .invalid("hub.room.minConfidence must be from 0 to 1") }
        guard (1...16).contains(room.minimumGateways) else { throw .invalid("hub.room.minGateways must be from 1 to 16") }
        guard room.scoreSigma > 0, room.scoreSigma <= 30 else { throw .invalid("hub.room.scoreSigma must be from 0 to 30 dB") }
        if let offline = gatewayOffline, offline < staleness {
            throw .invalid("hub.gatewayOffline must be at least hub.staleness (\(staleness))")
        }
        guard (2...16).contains(positioning.minimumGateways) else {
            throw .invalid("hub.position.minGateways must be from 2 to 16")
        }
        guard positioning.pathLossExponent > 0.5, positioning.pathLossExponent < 6 else {
            throw .invalid("hub.position.pathLossExponent must be between 0.5 and 6")
        }
        guard positioning.modelSigma > 0, positioning.offsetPrior > 0 else {
            throw .invalid("hub.position.modelSigma and offsetPrior must be positive")
        }
        guard (positioning.tracking ?? 1) >= 0, positioning.boundsMargin >= 0 else {
            throw .invalid("hub.position.tracking and boundsMargin must not be negative")
        }
        if let grid = positioning.grid {
            guard grid.cellSize >= 0.1, grid.cellSize <= 10 else {
                throw .invalid("hub.position.grid.cellSize must be from 0.1 to 10 m")
            }
            guard (16...65_536).contains(grid.maxCells ?? 16) else {
                throw .invalid("hub.position.grid.maxCells must be from 16 to 65536")
            }
            guard grid.walkingSpeed > 0, grid.walkingSpeed <= 10 else {
                throw .invalid("hub.position.grid.walkingSpeed must be above 0 and at most 10 m/s")
            }
            guard (0...0.99).contains(grid.stillShare) else {
                throw .invalid("hub.position.grid.stillShare must be from 0 to 0.99")
            }
            guard (0...10).contains(grid.lag) else {
                throw .invalid("hub.position.grid.lag must be a whole number of steps from 0 to 10")
            }
        }
        guard maxTracked > 0 else { throw .invalid("hub.maxTracked must be positive") }
        guard (1...GatewayReportEncoder.maxRecords).contains(maxRecordsPerReport) else {
            throw .invalid("hub.maxRecordsPerReport must be from 1 to \(GatewayReportEncoder.maxRecords)")
        }
        guard maxBeaconsPerGateway > 0 else { throw .invalid("hub.maxBeaconsPerGateway must be positive") }
        guard clockTolerance >= .milliseconds(100), clockTolerance <= .seconds(3600) else {
            throw .invalid("hub.clockTolerance must be from 100ms to 1h")
        }
        guard signatureWindow >= .seconds(1), signatureWindow <= .seconds(86_400) else {
            throw .invalid("hub.signatureWindow must be from 1s to 1d")
        }
    }
}

/// When a beacon changes room or floor, and when the hub says it does not know.
///
/// A gateway's score is the mean RSSI of its sightings over the last two cycles (weighted by
/// their counts; raw, not filtered: the filter lags a walking tag by seconds); a room's is its
/// best gateway's. A beacon changes room only when another room's score leads the current one's
/// by ``margin`` dB for ``minimumDwell``; to a room on another floor, by ``floorMargin`` for
/// ``floorMinimumDwell``.
///
/// Its room is *unknown* (no room, no position) when fewer than ``minimumGateways`` gateways
/// have fresh evidence of it, when its best room's score is below ``minimumRSSI``, when its
/// room's confidence falls below ``minimumConfidence``, or when every gateway of its room is
/// offline. The confidence is `Π Φ(lead / (scoreSigma·√2))` over the other rooms (`Docs/Site.md`,
/// "Confidence and unknown").
public struct RoomHysteresis: Hashable, Sendable {
    /// The lead, in dB, another room needs (default 4 dB).
    public var margin: Double
    /// How long the lead must last before the beacon changes room (default 2 s).
    public var minimumDwell: Duration
    /// The lead, in dB, a room on another floor needs (default 8 dB; ``margin`` when that is larger).
    public var floorMargin: Double
    /// How long that lead must last before the beacon changes floor (default 5 s;
    /// ``minimumDwell`` when that is longer).
    public var floorMinimumDwell: Duration
    /// A best room's score below this is too weak to place the beacon (default -95 dBm).
    public var minimumRSSI: Double
    /// A room confidence below this makes the room unknown (default 0: off; a lead that moves the
    /// beacon within `minimumDwell` would otherwise show as unknown first).
    public var minimumConfidence: Double
    /// Gateways that must have fresh evidence of the beacon (within the staleness; default 1).
    public var minimumGateways: Int
    /// The spread of a room's score (a two-cycle mean) about its truth, dB: the confidence's noise
    /// scale (default 4, the value whose confidences came out calibrated on the simulated shop;
    /// `Docs/Site.md`, "Confidence and unknown").
    public var scoreSigma: Double

    /// Creates the rule.
    public init(
        margin: Double = 4, minimumDwell: Duration = .seconds(2), floorMargin: Double = 8,
        floorMinimumDwell: Duration = .seconds(5), minimumRSSI: Double = -95, minimumConfidence: Double = 0,
        minimumGateways: Int = 1, scoreSigma: Double = 4
    ) {
        self.margin = margin
        self.minimumDwell = minimumDwell
        self.floorMargin = floorMargin
        self.floorMinimumDwell = floorMinimumDwell
        self.minimumRSSI = minimumRSSI
        self.minimumConfidence = minimumConfidence
        self.minimumGateways = minimumGateways
        self.scoreSigma = scoreSigma
    }
}

/// How positions are estimated.
public struct PositioningConfiguration: Hashable, Sendable {
    /// Gateways hearing the beacon in the cycle needed for multilateration (default 3); with
    /// fewer, the position is the centroid of those that do.
    public var minimumGateways: Int
    /// The height of the tags, metres (positions are solved in the horizontal plane at this
    /// height); `nil` (the default) takes 1.2 m, a tag worn or carried, where every gateway hangs
    /// at 2 m or higher (receivers on walls or ceilings, above the tags), and otherwise the mean
    /// height of the site's gateways (receivers at the tags' level).
    public var tagHeight: Double?
    /// The path-loss exponent of the RSSI model (default 1.5, the gateways' ranging default; use
    /// the same value as their `ranging.pathLossExponent`).
    public var pathLossExponent: Double
    /// The spread of one cycle's mean RSSI about the model, dB (default 6, measured on real
    /// recordings at 4.5 and 17 m).
    public var modelSigma: Double
    /// How far, in dB, the beacon's common offset may stray from its measured power before it
    /// costs as much as one gateway's misfit (default 10).
    public var offsetPrior: Double
    /// The process noise of position tracking, m²/s³ (default 0.5: people walking); `nil` turns
    /// tracking off (each cycle's fix as it is).
    public var tracking: Double?
    /// How far outside the gateways' bounding box a multilaterated fix may fall before it is
    /// distrusted and the centroid used instead, metres (default 2); the grid filter's cells cover
    /// the same box.
    public var boundsMargin: Double
    /// The grid filter's settings, for one that tracks each beacon heard by at least
    /// ``minimumGateways`` gateways; `nil` (the default): its default settings when
    /// ``gridByDefault``, else per-cycle fixes smoothed by a Kalman filter (``tracking``).
    public var grid: GridTracking?
    /// Whether the grid filter tracks beacons, with its default settings, when ``grid`` is not
    /// set (default `true`; `hub.position.grid: off` sets it `false`, for the per-cycle fit).
    public var gridByDefault = true

    /// The grid filter's settings when it is on (``grid``, else the defaults where
    /// ``gridByDefault``); `nil`: positions are per-cycle fixes.
    public var gridInUse: GridTracking? { grid ?? (gridByDefault ? GridTracking() : nil) }

    /// Creates the configuration.
    public init(
        minimumGateways: Int = 3, tagHeight: Double? = nil, pathLossExponent: Double = 1.5, modelSigma: Double = 6,
        offsetPrior: Double = 10, tracking: Double? = 0.5, boundsMargin: Double = 2, grid: GridTracking? = nil
    ) {
        self.grid = grid
        self.minimumGateways = minimumGateways
        self.tagHeight = tagHeight
        self.pathLossExponent = pathLossExponent
        self.modelSigma = modelSigma
        self.offsetPrior = offsetPrior
        self.tracking = tracking
        self.boundsMargin = boundsMargin
    }
}
