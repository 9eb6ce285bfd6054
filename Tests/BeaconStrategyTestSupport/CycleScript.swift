import BeaconCore
import BeaconStrategyKit
import Testing

// Scripted ranging cycles for strategy tests: shared by the strategy kit's tests and the plugin tests.

/// How a beacon appears in one ranging cycle of a test script.
public enum Sight: Hashable, Sendable, CustomStringConvertible {
    /// In the update and seen this cycle, at `proximity` with filtered RSSI `rssi`.
    case seen(Proximity, rssi: Double?)
    /// In the update but not seen this cycle (missed-scan grace).
    case grace
    /// Not in the update at all.
    case absent

    /// Seen at `near`, filtered RSSI -60 dBm.
    public static let near = Sight.seen(.near, rssi: -60)
    /// Seen at `far`, filtered RSSI -85 dBm.
    public static let far = Sight.seen(.far, rssi: -85)
    /// Seen at `immediate`, filtered RSSI -45 dBm.
    public static let immediate = Sight.seen(.immediate, rssi: -45)

    public var description: String {
        switch self {
        case .seen(let proximity, let rssi): "seen(\(proximity.name), \(rssi.map { "\($0)" } ?? "nil"))"
        case .grace: "grace"
        case .absent: "absent"
        }
    }
}

/// A run of cycles, one per second from `seconds.lowerBound` through `seconds.upperBound`, in
/// which the beacon appears as `sight`.
public struct Segment: Hashable, Sendable {
    public var seconds: ClosedRange<Int>
    public var sight: Sight

    public init(_ seconds: ClosedRange<Int>, _ sight: Sight) {
        self.seconds = seconds
        self.sight = sight
    }
}

/// A scenario: a script of cycles and the seconds at which the strategy must fire, worked out
/// by hand from the strategy's specification (the comment on each scenario says how).
public struct Scenario: Sendable, CustomTestStringConvertible {
    public var name: String
    public var script: [Segment]
    public var expectedFires: [Int]

    public init(name: String, script: [Segment], expectedFires: [Int]) {
        self.name = name
        self.script = script
        self.expectedFires = expectedFires
    }

    public var testDescription: String { name }
}

extension BeaconID {
    /// The beacon the scripts are about.
    public static let scripted = BeaconID.iBeacon(
        uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0,
        major: 1, minor: 1)

    /// Another beacon, for tests with several.
    public static func numbered(_ n: Int) -> BeaconID {
        .iBeacon(
            uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0,
            major: UInt16(n >> 16), minor: UInt16(truncatingIfNeeded: n))
    }
}

extension Timestamp {
    /// A cycle time `seconds` after an arbitrary origin (2026-01-01T00:00:00Z).
    public static func at(_ seconds: Int) -> Timestamp {
        Timestamp(nanosecondsSinceEpoch: 1_767_225_600_000_000_000 + Int64(seconds) * 1_000_000_000)
    }
}

extension RangedBeacon {
    /// A ranged beacon for `sight` (nil for `.absent`) at `now`.
    public static func scripted(_ sight: Sight, id: BeaconID = .scripted, now: Timestamp) -> RangedBeacon? {
        switch sight {
        case .absent:
            return nil
        case .grace:
            return RangedBeacon(
                id: id, lastAddress: BluetoothAddress(rawValue: 0xC0FFEE), seenThisCycle: false,
                sampleCount: 0, lastRSSI: nil, meanRSSI: nil, filteredRSSI: nil,
                measuredPower: -59, distance: nil, accuracy: nil, proximity: .unknown,
                firstSeen: .at(0), lastSeen: now - .seconds(1))
        case .seen(let proximity, let rssi):
            return RangedBeacon(
                id: id, lastAddress: BluetoothAddress(rawValue: 0xC0FFEE), seenThisCycle: true,
                sampleCount: 1, lastRSSI: rssi.map { Int8($0) }, meanRSSI: rssi,
                filteredRSSI: rssi, measuredPower: -59, distance: nil, accuracy: nil,
                proximity: proximity, firstSeen: .at(0), lastSeen: now)
        }
    }
}

/// Runs `script` through `strategy` (one cycle per second) and returns the seconds at which it
/// fired for the scripted beacon.
public func fireSeconds(of strategy: any BeaconAlertStrategy, _ script: [Segment]) -> [Int] {
    var fired: [Int] = []
    for segment in script {
        for second in segment.seconds {
            let now = Timestamp.at(second)
            var triggers: [AlertTrigger] = []
            let beacons = RangedBeacon.scripted(segment.sight, now: now).map { [$0] } ?? []
            strategy.evaluate(beacons, now: now, into: &triggers)
            for trigger in triggers {
                precondition(trigger.beacon == .scripted && trigger.time == now && trigger.strategy == strategy.key)
                fired.append(second)
            }
        }
    }
    return fired
}
