import BeaconCore
import BeaconCrypto
import BeaconDevices

/// Resolving private addresses (`BeaconDevices`): the cost of a new address against 1,000
/// enrolled keys, of a known address per packet, and a simulated week of a busy street's
/// strangers against those keys — how many addresses resolve by chance, and how many of those
/// the corroboration lets arrive.
enum DeviceBenchmarks {
    /// `count` devices with random keys, each key's order settled (`ambiguous`: both orders in play).
    static func devices(_ count: Int, ambiguous: Bool, seed: UInt64) -> [EnrolledDevice] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let forward = IdentityResolvingKeyText.Candidate(
                order: .mostSignificantFirst, key: IdentityResolvingKey(bytes: bytes)!)
            let backward = IdentityResolvingKeyText.Candidate(
                order: .leastSignificantFirst, key: IdentityResolvingKey(bytes: bytes.reversed())!)
            return EnrolledDevice(
                id: BeaconID.device(named: "d\(index)")!, candidates: ambiguous ? [forward, backward] : [forward])
        }
    }

    /// A stranger's resolvable private address: random, top bits 01.
    static func strangerAddress(_ random: inout SplitMix64) -> BluetoothAddress {
        BluetoothAddress(rawValue: 0x4000_0000_0000 | random.next() & 0x3FFF_FFFF_FFFF)
    }

    static func run() -> [BenchResult] {
        var results: [BenchResult] = []
        let t0 = Timestamp(nanosecondsSinceEpoch: 1_800_000_000_000_000_000)
        // A new address against 1,000 keys (orders settled, then open).
        for ambiguous in [false, true] {
            var resolver = PrivateAddressResolver(devices: devices(1000, ambiguous: ambiguous, seed: 1), cacheCapacity: 1 << 16)
            var random = SplitMix64(seed: 2)
            let addresses = (0..<400).map { _ in strangerAddress(&random) }
            var offset = 0
            var result = Bench.measure(
                "resolve: a new address against 1,000 keys\(ambiguous ? " (both orders open)" : "")", items: 100,
                unit: "addresses", repetitions: 3
            ) {
                for index in 0..<100 { blackHole(resolver.resolvedDevice(for: addresses[(offset + index) % 400], type: .random)) }
                offset += 100
            }
            let share = 200 * result.nanosecondsPerItem / 1e9 * 100
            result.extra = [("200 new addresses/s cost", "\(Bench.format(share, 2)) % of a core")]
            results.append(result)
        }
        // A known address, per packet.
        var resolver = PrivateAddressResolver(devices: devices(1000, ambiguous: false, seed: 1))
        var random = SplitMix64(seed: 3)
        let known = (0..<256).map { _ in strangerAddress(&random) }
        for address in known { _ = resolver.resolvedDevice(for: address, type: .random) }
        let packets = 1_000_000
        results.append(
            Bench.measure("resolve: a known address (cached), per packet", items: packets, unit: "packets") {
                for index in 0..<packets {
                    blackHole(resolver.device(for: known[index & 255], type: .random, at: t0))
                }
            })
        results.append(street(t0: t0))
        return results
    }

    /// A week of a busy street heard by a home gateway: 1,000 strangers' new addresses an hour
    /// (each heard every 10 s for 1 to 10 minutes), against 1,000 enrolled keys. Reports the
    /// addresses that resolved by chance and the arrivals the resolver let through.
    static func street(t0: Timestamp) -> BenchResult {
        let keys = 1000
        var resolver = PrivateAddressResolver(devices: devices(keys, ambiguous: false, seed: 11), cacheCapacity: 1 << 14)
        var random = SplitMix64(seed: 12)
        let hours = 7 * 24
        var taken = 0
        var addresses = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for hour in 0..<hours {
                for arrival in 0..<1000 {
                    let address = strangerAddress(&random)
                    addresses += 1
                    let start = t0 + .seconds(Int64(hour * 3600 + arrival * 36 / 10))
                    let stay = 6 + Int(random.next() % 55)
                    for beat in 0..<stay {
                        if resolver.device(for: address, type: .random, at: start + .seconds(Int64(beat * 10))) != nil {
                            taken += 1
                        }
                    }
                }
            }
        }
        let statistics = resolver.statistics
        var result = BenchResult(
            name: "street: a week, 1,000 strangers' addresses/h against \(keys) keys", items: addresses, unit: "addresses",
            bestSeconds: elapsed.seconds, allocationsPerItem: 0)
        let expected = Double(addresses) * Double(keys) / Double(1 << 24)
        result.extra = [
            ("resolved by chance", "\(statistics.addressesResolved) (expected \(Bench.format(expected, 1)))"),
            ("arrivals let through", "\(statistics.corroborated)"), ("sightings taken", "\(taken)"),
        ]
        return result
    }
}
