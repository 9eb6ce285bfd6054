import BeaconCore

/// A simulated advertiser: what it broadcasts, how often, how loud, and where it is.
public struct BeaconSpec: Hashable, Sendable {
    /// The beacon's name in the scenario (and in the truth file).
    public var name: String
    /// The frame it broadcasts and the identity in it.
    public var identity: BeaconIdentity
    /// RSSI at 1 m from the beacon, dBm (the iBeacon "measured power"; the radio model's reference).
    public var measuredPower: Int
    /// Advertising interval (`advInterval`); each event is further delayed by the spec's random
    /// `advDelay` of 0–10 ms.
    public var interval: Duration
    /// Fixed, or carried by a walker.
    public var placement: Placement
    /// The advertiser address (random static by default).
    public var address: BluetoothAddress
    /// Eddystone-TLM telemetry interleaved with the identity frames, if any.
    public var telemetry: Telemetry?
    /// The index of the gateway that advertises this identity (``GatewaySpec/advertise``), which
    /// never hears itself; `nil` for a beacon.
    public var gateway: Int?

    /// Where a beacon is.
    public enum Placement: Hashable, Sendable {
        /// Mounted at a fixed point.
        case fixed(Vector3)
        /// Carried by the walker at this index of ``Scenario/walkers``.
        case carried(walkerIndex: Int)
    }

    /// Eddystone-TLM frames: one every `every` advertisements, with a battery that drains.
    public struct Telemetry: Hashable, Sendable {
        /// Battery voltage at the start, millivolts.
        public var batteryMillivolts: Int
        /// Battery drain, millivolts per day of virtual time.
        public var drainMillivoltsPerDay: Double
        /// Beacon temperature, °C.
        public var temperature: Double
        /// One TLM frame every this many advertisements.
        public var every: Int

        /// Creates telemetry settings.
        public init(
            batteryMillivolts: Int, drainMillivoltsPerDay: Double = 0, temperature: Double = 20,
            every: Int = 10
        ) {
            self.batteryMillivolts = batteryMillivolts
            self.drainMillivoltsPerDay = drainMillivoltsPerDay
            self.temperature = temperature
            self.every = max(1, every)
        }
    }

    /// Creates a beacon.
    public init(
        name: String, identity: BeaconIdentity, measuredPower: Int = -59, interval: Duration = .seconds(1),
        placement: Placement, address: BluetoothAddress, telemetry: Telemetry? = nil
    ) {
        self.name = name
        self.identity = identity
        self.measuredPower = measuredPower
        self.interval = interval
        self.placement = placement
        self.address = address
        self.telemetry = telemetry
    }

    /// The default address of the beacon at `index`: a random static address (top bits 11)
    /// that is unique per index and stable across runs.
    public static func defaultAddress(index: Int) -> BluetoothAddress {
        BluetoothAddress(rawValue: 0xCB_EA_C0_00_00_00 | UInt64(index & 0xFF_FFFF))
    }
}
