import BeaconCore
import BeaconCrypto

/// Tells which enrolled device a resolvable private address belongs to: each new address is
/// hashed under every enrolled key once (the Core Specification's `ah`, AES-128), and the answer —
/// a device, or a stranger — is remembered while the address is heard.
///
/// - **Only RPAs are hashed**: a public, static or non-resolvable address, or an identity address
///   the controller already resolved, is never looked up.
/// - **Byte order is learned**: a key written in a form that leaves its byte order open is tried
///   both ways; the first order that resolves an address is kept and the other dropped
///   (``settledOrder(of:)``), so a key copied from BlueZ into a Home Assistant-style field works.
/// - **A chance match cannot arrive**: a stranger's address resolves under a given key with
///   probability 2⁻²⁴, and such an address keeps resolving for as long as it lives. So a device
///   that has not been heard for ``corroborationWindow`` arrives only when a *second* address
///   resolves to it within that window (phones rotate every ~15 minutes); until then its
///   sightings are held back (``Statistics/heldBack``). While it stays, each new address carries
///   on at once. Two chance matches on the same key within the window have a probability of
///   order (n·2⁻²⁴)² for n strangers' addresses: none in a week of a busy street
///   (Docs/Devices.md). The price: an arrival after a long absence is known at the phone's first
///   rotation, not at its first packet. A device enrolled with `corroborate: false` skips it.
/// - **Bounded memory, no allocation per packet**: answers live in two generations of at most
///   `cacheCapacity` addresses each; when the newer fills, the older is dropped and the newer
///   takes its place (an address still heard is carried over when it is next looked up). Both
///   tables are sized at creation.
///
/// Time comes from the sightings (`now`). A value: whoever holds it owns its cache.
public struct PrivateAddressResolver: Sendable {
    /// The enrolled devices, in configuration order.
    public let devices: [EnrolledDevice]
    /// How long a device may go unheard and still take a new address at once.
    public let corroborationWindow: Duration
    /// Per device, the keys still in play (both orders until one resolves).
    private var keys: [[IdentityResolvingKeyText.Candidate]]
    /// Per device, whether it is present and when it was last heard, or its one tentative address.
    private var presence: [Presence]
    private var current: [UInt64: Int32]
    private var previous: [UInt64: Int32]
    private let cacheCapacity: Int
    /// What the resolver has done so far.
    public private(set) var statistics = Statistics()

    /// Counts of what was looked up and how it ended.
    public struct Statistics: Sendable, Hashable {
        /// Distinct addresses hashed against the keys (cache misses).
        public var addressesHashed = 0
        /// AES operations done (addresses hashed × keys in play).
        public var hashes = 0
        /// Addresses that resolved to a device.
        public var addressesResolved = 0
        /// Lookups answered from the cache.
        public var cacheHits = 0
        /// Sightings of a resolved address held back while its device waited for a second address.
        public var heldBack = 0
        /// Arrivals confirmed by a second address.
        public var corroborated = 0
        /// Tentative addresses that no second address confirmed within the window: a device that
        /// came and went within one address, or a chance match.
        public var uncorroborated = 0

        /// All zero.
        public init() {}
    }

    private struct Presence {
        /// When an address of the device was last taken (it is present while this is recent).
        var lastTaken: Timestamp?
        /// The first address of an arrival, waiting for a second, and when it was first heard.
        var tentative: (address: UInt64, since: Timestamp)?
    }

    /// A resolver for `devices`, remembering up to `cacheCapacity` addresses per generation.
    /// - Parameters:
    ///   - devices: the enrolled devices.
    ///   - corroborationWindow: how long a device may go unheard and still take a new address at
    ///     once; an arrival's two addresses must fall within it.
    ///   - cacheCapacity: addresses remembered per generation (two generations are kept).
    public init(devices: [EnrolledDevice], corroborationWindow: Duration = .seconds(30 * 60), cacheCapacity: Int = 4096) {
        self.devices = devices
        self.corroborationWindow = corroborationWindow
        keys = devices.map(\.candidates)
        presence = Array(repeating: Presence(), count: devices.count)
        self.cacheCapacity = max(16, cacheCapacity)
        current = Dictionary(minimumCapacity: self.cacheCapacity)
        previous = Dictionary(minimumCapacity: self.cacheCapacity)
    }

    /// The index in ``devices`` of the device an advertisement from `address` at `now` is taken
    /// for, or `nil`: not an RPA, a stranger's, or a device's first address still waiting for a
    /// second.
    public mutating func device(for address: BluetoothAddress, type: AddressType, at now: Timestamp) -> Int? {
        guard let device = resolvedDevice(for: address, type: type) else { return nil }
        return take(device, address: address.rawValue, at: now) ? device : nil
    }

    /// The index in ``devices`` whose key resolves `address` (from the cache, or hashed now),
    /// whatever the corroboration says; `nil` when it is not an RPA or resolves under no key.
    public mutating func resolvedDevice(for address: BluetoothAddress, type: AddressType) -> Int? {
        guard !devices.isEmpty, address.isResolvablePrivate(type: type) else { return nil }
        let key = address.rawValue
        if let answer = current[key] {
            statistics.cacheHits += 1
            return answer < 0 ? nil : Int(answer)
        }
        let answer: Int32
        if let remembered = previous[key] {
            statistics.cacheHits += 1
            answer = remembered
        } else {
            answer = resolve(address)
        }
        remember(key, answer)
        return answer < 0 ? nil : Int(answer)
    }

    /// The addresses remembered, both generations (at most twice the capacity).
    public var cachedAddressCount: Int { current.count + previous.count }

    /// The byte order a device's key resolved in; `nil` while no address has resolved and the
    /// written form left it open.
    public func settledOrder(of device: Int) -> IdentityResolvingKeyOrder? {
        keys[device].count == 1 ? keys[device][0].order : nil
    }

    /// Whether a sighting of `device` from `address` at `now` counts, under the corroboration rule.
    private mutating func take(_ device: Int, address: UInt64, at now: Timestamp) -> Bool {
        guard devices[device].corroborates else { return true }
        if let last = presence[device].lastTaken, now - last <= corroborationWindow {
            presence[device].lastTaken = max(last, now)
            return true
        }
        if let tentative = presence[device].tentative, now - tentative.since <= corroborationWindow {
            if tentative.address == address {
                statistics.heldBack += 1
                return false
            }
            presence[device] = Presence(lastTaken: now, tentative: nil)
            statistics.corroborated += 1
            return true
        }
        if presence[device].tentative != nil { statistics.uncorroborated += 1 }
        presence[device].tentative = (address, now)
        statistics.heldBack += 1
        return false
    }

    /// Hashes `address` under every key in play.
    private mutating func resolve(_ address: BluetoothAddress) -> Int32 {
        statistics.addressesHashed += 1
        let prand = address.resolvablePrivateRandomPart
        let hash = address.resolvablePrivateHash
        for device in keys.indices {
            for (index, candidate) in keys[device].enumerated() {
                statistics.hashes += 1
                guard candidate.key.hash(prand: prand) == hash else { continue }
                if keys[device].count > 1 { keys[device] = [keys[device][index]] }
                statistics.addressesResolved += 1
                return Int32(device)
            }
        }
        return -1
    }

    private mutating func remember(_ key: UInt64, _ answer: Int32) {
        if current.count >= cacheCapacity {
            swap(&current, &previous)
            current.removeAll(keepingCapacity: true)
        }
        current[key] = answer
    }
}
