import BeaconCore
import BeaconStrategies
import BeaconStrategyKit

// 1. The stock strategies plus ours.
var registry = StrategyRegistry.builtIn()
try registry.register(SteadySignalStrategy.registration)

// 2. Configuration, as a YAML mapping decodes to plain values:
//
//     strategy: all-of
//     of:
//       - strategy: steady-signal
//         duration: 10s
//       - strategy: proximity
//         proximity: near
let configuration: [String: StrategyValue] = [
    "strategy": "all-of",
    "of": [["strategy": "steady-signal", "duration": "10s"], ["strategy": "proximity", "proximity": "near"]],
]
let strategy = try registry.makeStrategy(table: configuration)

// 3. Feed ranging updates (here: a scripted tag, steady at -62 dBm, near) and print decisions.
let tag = BeaconID.iBeacon(uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0, major: 7, minor: 42)
var triggers: [AlertTrigger] = []
for second in 0...15 {
    let now = Timestamp.epoch + .seconds(second)
    let beacon = RangedBeacon(
        id: tag, lastAddress: BluetoothAddress(rawValue: 0xC0FFEE), seenThisCycle: true,
        sampleCount: 3, lastRSSI: -62, meanRSSI: -62, filteredRSSI: second < 3 ? -75 : -62,
        measuredPower: -59, distance: 1.4, accuracy: 0.4, proximity: .near,
        firstSeen: .epoch, lastSeen: now)
    strategy.evaluate(RangingUpdate(cycleStart: now - .seconds(1), time: now, beacons: [beacon]), into: &triggers)
}
for trigger in triggers { print(trigger) }

// 4. What `beacond strategies` would list, ours included.
print(registry.listingText())
