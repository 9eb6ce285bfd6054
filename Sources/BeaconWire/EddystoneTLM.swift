/// An unencrypted Eddystone-TLM frame (frame type 0x20, version 0): telemetry, all big-endian.
public struct EddystoneTLM: Hashable, Sendable {
    /// The frame type byte.
    public static let frameType: UInt8 = 0x20
    /// Frame bytes: type, version, battery (2), temperature (2), advertising count (4), uptime (4).
    public static let length = 14

    /// Battery voltage in mV (0 when not powered by a battery).
    public var batteryMillivolts: UInt16
    /// Temperature as signed 8.8 fixed point (°C × 256); 0x8000 (−32768) when not supported.
    public var temperatureRaw: Int16
    /// Advertising PDUs sent since power-up.
    public var advertisingCount: UInt32
    /// Time since power-up, in units of 0.1 s.
    public var uptimeTenthsOfSeconds: UInt32

    /// Creates a frame.
    @inlinable
    public init(batteryMillivolts: UInt16, temperatureRaw: Int16, advertisingCount: UInt32, uptimeTenthsOfSeconds: UInt32) {
        self.batteryMillivolts = batteryMillivolts
        self.temperatureRaw = temperatureRaw
        self.advertisingCount = advertisingCount
        self.uptimeTenthsOfSeconds = uptimeTenthsOfSeconds
    }

    /// Decodes a frame (the service data after the 0xFEAA UUID); `nil` unless it is an
    /// unencrypted (version 0) TLM frame of at least 14 bytes.
    @inlinable
    public init?(frame f: UnsafeRawBufferPointer) {
        guard f.count >= Self.length, f[0] == Self.frameType, f[1] == 0x00 else { return nil }
        self.init(
            batteryMillivolts: f.bigEndianUInt16(at: 2), temperatureRaw: Int16(bitPattern: f.bigEndianUInt16(at: 4)),
            advertisingCount: f.bigEndianUInt32(at: 6), uptimeTenthsOfSeconds: f.bigEndianUInt32(at: 10))
    }

    /// Temperature in °C, or `nil` when the beacon does not measure it.
    public var temperatureCelsius: Double? {
        temperatureRaw == Int16.min ? nil : Double(temperatureRaw) / 256
    }
}
