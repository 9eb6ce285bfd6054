import BeaconCore
import FoundationEssentials
import Testing

@testable import BeaconRanging

/// Pins the loop's complete output (every field of every update, floating-point values by bit
/// pattern) on long pseudo-random streams, for each filter, with and without the spike clamp and
/// regions. The digests were recorded before the hot/cold split of the tracked state (issue 4):
/// a layout or fast-path change must not change a single bit of what the loop emits.
///
/// Except in two fields: distance and accuracy are digested rounded to `Float` (about seven
/// significant digits). Since issue 38 they are computed with `exp` instead of `pow` (a few
/// units in the last place apart) and the accuracy as a factor of the distance; the digests
/// below are the same whether the loop computes them the old way or the new.
@Suite("RangingLoop golden output")
struct RangingLoopGoldenTests {
    /// FNV-1a over 64-bit words.
    struct Digest {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        mutating func add(_ word: UInt64) {
            value ^= word
            value &*= 0x0000_0100_0000_01B3
        }
        mutating func add(_ d: Double?) { add(d.map(\.bitPattern) ?? 0x7FF8_DEAD_0000_0001) }
        mutating func add(_ i: Int8?) { add(i.map { UInt64(UInt8(bitPattern: $0)) } ?? 0x1_0000) }
        mutating func add(_ id: BeaconID) {
            add(UInt64(id.kind.rawValue))
            add(id.high)
            add(id.low)
            add(UInt64(id.tail))
        }
        mutating func add(_ s: String) { for b in s.utf8 { add(UInt64(b)) } }

        mutating func add(_ u: RangingUpdate) {
            add(UInt64(bitPattern: u.cycleStart.nanosecondsSinceEpoch))
            add(UInt64(bitPattern: u.time.nanosecondsSinceEpoch))
            add(UInt64(u.beacons.count))
            // Beacon order within an update is not part of the contract: digest in identity order.
            for b in u.beacons.sorted(by: { $0.id < $1.id }) {
                add(b.id)
                add(b.lastAddress.rawValue)
                add(UInt64(b.addressCount))
                add(b.seenThisCycle ? 1 : 0)
                add(UInt64(b.sampleCount))
                add(b.lastRSSI)
                add(b.meanRSSI)
                add(b.filteredRSSI)
                add(b.measuredPower)
                add(b.distance.map { Double(Float($0)) })
                add(b.accuracy.map { Double(Float($0)) })
                add(UInt64(b.proximity.rawValue))
                add(UInt64(bitPattern: b.firstSeen.nanosecondsSinceEpoch))
                add(UInt64(bitPattern: b.lastSeen.nanosecondsSinceEpoch))
            }
            for e in u.regionEvents {
                add(e.kind.rawValue)
                add(e.regionID)
                add(e.beacon)
                add(UInt64(bitPattern: e.time.nanosecondsSinceEpoch))
            }
            for id in u.evicted.sorted() { add(id) }
        }
    }

    /// 200 beacons (three frame families) appearing, rotating addresses, going silent and coming
    /// back over 120 s; RSSI sometimes missing, measured power sometimes absent; some
    /// sightings out of order or late.
    static func stream(seed: UInt64) -> [BeaconSighting] {
        var rng = SplitMix64(seed: seed)
        var out: [BeaconSighting] = []
        var t = 0.0
        while t < 120 {
            t += rng.nextUnit() * 0.004
            let n = Int(rng.next() % 200)
            // Beacons 100…199 are only around in the first and last 40 s.
            if n >= 100 && t > 40 && t < 80 { continue }
            let id: BeaconID =
                switch n % 3 {
                case 0: Fixture.beacon(UInt16(n), major: 7)
                case 1: .altBeacon(id1High: 0x1122_3344_5566_7788, id1Low: 0x99AA_BBCC_DDEE_FF00, id2: 3, id3: UInt16(n))
                default: .eddystoneUID(namespaceHigh: 0xEDD1, namespaceLow: 0x0102_0304_0506_0708, instance: UInt64(n))
                }
            let jitter = rng.next() % 50 == 0 ? -rng.nextUnit() * 1.5 : 0 // out of order / late
            let rssi: Int8? = rng.next() % 20 == 0 ? nil : Int8(-40 - Int(rng.next() % 60))
            let power: Int8? = rng.next() % 4 == 0 ? nil : Int8(-55 - Int(rng.next() % 10))
            let address = UInt64(n) << 8 | rng.next() % (n % 5 == 0 ? 12 : 1)
            out.append(
                BeaconSighting(
                    timestamp: Fixture.time(max(0, t + jitter)), id: id,
                    address: BluetoothAddress(rawValue: address), addressType: .random,
                    rssi: rssi, measuredPower: power))
        }
        return out
    }

    static let configurations: [(String, RangingConfiguration)] = {
        let uuid = UUID(uuid: (0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0))
        let regions = [
            BeaconRegion(id: "all", match: .any, exitTimeout: .seconds(20)),
            BeaconRegion(id: "ibeacons", match: .uuid(uuid)),
            BeaconRegion(id: "one", match: .uuid(uuid, major: 7, minor: 3), exitTimeout: .seconds(2)),
        ]
        return [
            ("default", RangingConfiguration(retention: .seconds(10))),
            ("arma-clamp-regions", RangingConfiguration(retention: .seconds(10), spikeClamp: 6, regions: regions)),
            ("kalman", RangingConfiguration(retention: .seconds(10), filter: .kalman(.init()))),
            ("one-euro-clamp", RangingConfiguration(retention: .seconds(10), filter: .oneEuro(.init()), spikeClamp: 4)),
            (
                "running-average-regions",
                RangingConfiguration(retention: .seconds(10), filter: .runningAverage(.init()), regions: regions)
            ),
            (
                "percentile",
                RangingConfiguration(
                    retention: .seconds(10), filter: .percentile(.init()),
                    calibrations: [Fixture.beacon(3, major: 7): .init(measuredPower: -50, pathLossExponent: 2.5)])
            ),
        ]
    }()

    static func digest(
        _ configuration: RangingConfiguration, batched: Bool,
        prefetching: Bool = false
    ) throws -> (UInt64, Int) {
        // Prefetching (and the one-by-one path's pipeline) normally starts at 16,384 beacons.
        var loop = try RangingLoop(
            configuration: configuration,
            prefetchFromCount: prefetching ? 0 : RangingLoop.defaultPrefetchFromCount)
        var digest = Digest()
        var updates = 0
        let stream = stream(seed: 42)
        if batched {
            // Uneven batch sizes, as packet batches come.
            var start = 0
            var size = 1
            while start < stream.count {
                let end = min(stream.count, start + size)
                stream[start..<end].withUnsafeBufferPointer {
                    loop.ingest(contentsOf: $0) {
                        digest.add($0)
                        updates += 1
                    }
                }
                start = end
                size = size % 97 + 13
            }
        } else {
            for s in stream {
                loop.ingest(s) {
                    digest.add($0)
                    updates += 1
                }
            }
        }
        loop.advance(to: Fixture.time(200)) {
            digest.add($0)
            updates += 1
        }
        digest.add(UInt64(loop.lateSightings))
        return (digest.value, updates)
    }

    static let expected: [String: UInt64] = [
        "default": 0x04e4_1ab0_2f7b_e0b2,
        "arma-clamp-regions": 0xb88d_b46b_9aa4_7bfb,
        "kalman": 0x7315_bf74_1a28_67fb,
        "one-euro-clamp": 0x56d9_1df6_709b_d097,
        "running-average-regions": 0xa0f3_b9b3_aa79_19d8,
        "percentile": 0x7d06_0974_4b9a_c24d,
    ]

    @Test(
        "one-by-one and batched ingestion, with and without prefetching, emit the recorded output",
        arguments: [false, true], [false, true])
    func goldenDigests(batched: Bool, prefetching: Bool) throws {
        for (name, configuration) in Self.configurations {
            let (value, updates) = try Self.digest(configuration, batched: batched, prefetching: prefetching)
            #expect(updates > 120)
            #expect(Self.expected[name] == value, "\(name)")
        }
    }
}

@Suite("RangingLoop pipeline")
struct RangingLoopPipelineTests {
    @Test("trackedCount counts beacons whose first sighting is still pending")
    func trackedCountWhilePending() throws {
        var loop = try RangingLoop(configuration: .init(), prefetchFromCount: 0)
        _ = loop.ingest(Fixture.sighting(0.1, 1))
        #expect(loop.trackedCount == 1)
        _ = loop.ingest(Fixture.sighting(0.2, 2))
        _ = loop.ingest(Fixture.sighting(0.3, 2))
        #expect(loop.trackedCount == 2)
        _ = loop.ingest(Fixture.sighting(0.4, 1))
        _ = loop.ingest(Fixture.sighting(0.5, 3))
        #expect(loop.trackedCount == 3)
        let update = try #require(loop.advance(to: Fixture.time(1)).first)
        #expect(update.beacons.map(\.sampleCount) == [2, 2, 1])
        #expect(loop.trackedCount == 3)
    }
}
