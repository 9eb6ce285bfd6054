import BeaconCore
import BeaconCrypto
import BeaconDevices
import Testing

/// The resolver: which addresses it hashes, what it remembers, the byte order it learns, and the
/// corroboration that keeps a chance match from arriving. Addresses of a key are made with the
/// specification's `ah` (checked against its sample data in BeaconCryptoTests).
@Suite("Resolving private addresses")
struct PrivateAddressResolverTests {
    static let sampleHex = "ec0234a357c8ad05341010a60a397d9b"
    static let t0 = Timestamp(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)

    /// A device enrolled from `text` (both orders when the form leaves it open).
    static func device(_ name: String, _ text: String, corroborates: Bool = true) throws -> EnrolledDevice {
        EnrolledDevice(
            id: BeaconID.device(named: name)!, candidates: try IdentityResolvingKeyText(parsing: text).candidates,
            measuredPower: -62, corroborates: corroborates)
    }

    static var sampleKey: IdentityResolvingKey { try! IdentityResolvingKeyText(parsing: sampleHex).candidates[0].key }

    @Test("an RPA of an enrolled key resolves; public, static and non-resolvable addresses are never hashed")
    func onlyRPAsAreHashed() throws {
        var resolver = PrivateAddressResolver(devices: [try Self.device("ada-phone", Self.sampleHex, corroborates: false)])
        for (text, type) in [
            ("70:81:94:0D:FB:AA", AddressType.public), ("F0:81:94:0D:FB:AA", .random), ("30:81:94:0D:FB:AA", .random),
            ("70:81:94:0D:FB:AA", .randomIdentity),
        ] {
            #expect(resolver.resolvedDevice(for: BluetoothAddress(text)!, type: type) == nil)
        }
        #expect(resolver.statistics.hashes == 0)
        #expect(resolver.resolvedDevice(for: BluetoothAddress("70:81:94:0D:FB:AA")!, type: .random) == 0)
        #expect(resolver.resolvedDevice(for: BluetoothAddress("70:81:94:0D:FB:AB")!, type: .random) == nil)
    }

    @Test("an address is hashed once; later packets are answered from the cache, strangers too")
    func answersAreRemembered() throws {
        var resolver = PrivateAddressResolver(devices: [try Self.device("ada-phone", Self.sampleHex, corroborates: false)])
        let stranger = BluetoothAddress("70:81:94:0D:FB:AB")!
        let own = BluetoothAddress("70:81:94:0D:FB:AA")!
        for _ in 0..<50 {
            _ = resolver.resolvedDevice(for: own, type: .random)
            _ = resolver.resolvedDevice(for: stranger, type: .random)
        }
        #expect(resolver.statistics.addressesHashed == 2)
        #expect(resolver.statistics.cacheHits == 98)
    }

    @Test("a key written with its order open settles on the order that resolves, and hashes once per address after")
    func orderIsLearned() throws {
        // BlueZ's order written as bare hex: most significant first is tried first, and fails.
        var resolver = PrivateAddressResolver(devices: [try Self.device("ada-phone", "9b7d390aa610103405adc857a33402ec")])
        #expect(resolver.settledOrder(of: 0) == nil)
        _ = resolver.resolvedDevice(for: BluetoothAddress("70:81:94:0D:FB:AA")!, type: .random)
        #expect(resolver.settledOrder(of: 0) == .leastSignificantFirst)
        let before = resolver.statistics.hashes
        _ = resolver.resolvedDevice(for: Self.sampleKey.resolvablePrivateAddress(random: 12345), type: .random)
        #expect(resolver.statistics.hashes == before + 1)
    }

    @Test("an arrival waits for a second address; while the device stays, each new address carries on at once")
    func arrivalsAreCorroborated() throws {
        var resolver = PrivateAddressResolver(devices: [try Self.device("ada-phone", Self.sampleHex)])
        let first = Self.sampleKey.resolvablePrivateAddress(random: 1)
        let second = Self.sampleKey.resolvablePrivateAddress(random: 2)
        let third = Self.sampleKey.resolvablePrivateAddress(random: 3)
        // Ten minutes on its first address: held back.
        for second in 0..<600 {
            #expect(resolver.device(for: first, type: .random, at: Self.t0 + .seconds(Int64(second))) == nil)
        }
        // It rotates: the second address corroborates the first, and counts from then on.
        #expect(resolver.device(for: second, type: .random, at: Self.t0 + .seconds(600)) == 0)
        #expect(resolver.device(for: first, type: .random, at: Self.t0 + .seconds(601)) == 0)
        // Fifteen minutes later, a third address carries on at once.
        #expect(resolver.device(for: third, type: .random, at: Self.t0 + .seconds(1500)) == 0)
        #expect(resolver.statistics.corroborated == 1)
        // Gone for over the window (30 min): the next arrival waits again.
        let fourth = Self.sampleKey.resolvablePrivateAddress(random: 4)
        #expect(resolver.device(for: fourth, type: .random, at: Self.t0 + .seconds(1500 + 1801)) == nil)
    }

    @Test("a stranger's address that resolves by chance is never taken, however long it is heard")
    func aChanceMatchNeverArrives() throws {
        var resolver = PrivateAddressResolver(devices: [try Self.device("ada-phone", Self.sampleHex)])
        // A neighbour's phone whose one address happens to hash right under Ada's key (what a
        // chance match is), heard every second for its whole life and the next day again.
        let phantom = Self.sampleKey.resolvablePrivateAddress(random: 0xBEEF)
        for day in [0, 1] {
            for second in stride(from: 0, to: 3600, by: 1) {
                let now = Self.t0 + .seconds(Int64(day * 86_400 + second))
                #expect(resolver.device(for: phantom, type: .random, at: now) == nil)
            }
        }
        #expect(resolver.statistics.corroborated == 0)
        #expect(resolver.statistics.heldBack == 7200)
        #expect(resolver.statistics.uncorroborated >= 1)
    }

    @Test("a device enrolled with corroborate: false is taken at its first packet")
    func corroborationCanBeOff() throws {
        var resolver = PrivateAddressResolver(devices: [try Self.device("ada-phone", Self.sampleHex, corroborates: false)])
        #expect(resolver.device(for: Self.sampleKey.resolvablePrivateAddress(random: 9), type: .random, at: Self.t0) == 0)
    }

    @Test("the cache stays within two generations of its capacity, and a live address survives a turnover")
    func cacheIsBounded() throws {
        var resolver = PrivateAddressResolver(
            devices: [try Self.device("ada-phone", Self.sampleHex, corroborates: false)], cacheCapacity: 16)
        let own = Self.sampleKey.resolvablePrivateAddress(random: 77)
        var generator = SplitMix64(seed: 7)
        for index in 0..<1000 {
            let stranger = BluetoothAddress(rawValue: 0x4000_0000_0000 | generator.next() & 0x3FFF_FFFF_FFFF)
            _ = resolver.resolvedDevice(for: stranger, type: .random)
            if index % 8 == 0 { #expect(resolver.resolvedDevice(for: own, type: .random) == 0) }
        }
        #expect(resolver.cachedAddressCount <= 32)
        // The device's address was hashed once: every turnover carried it over.
        #expect(resolver.statistics.addressesResolved == 1)
    }
}
