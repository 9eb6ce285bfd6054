import BeaconCore
import BeaconCrypto

/// How a simulated phone's address changes: a new resolvable private address every `rotation`,
/// made with its identity resolving key, the changes spread over the phones by a phase of their
/// own. The address at a time is a pure function of the time (no state), so that every gateway's
/// engine hears the same phone under the same address at the same moment.
struct PhoneAddressing: Sendable {
    let key: IdentityResolvingKey
    let rotationNanoseconds: Int64
    let phaseNanoseconds: Int64
    let salt: UInt64

    /// The addressing of a phone named `name`: with `irk` (16 bytes, most significant first), or
    /// a key derived from the name (a stranger's phone, which nobody enrolled).
    init(name: String, irk: [UInt8]?, rotation: Duration) {
        let digest = SHA256Hasher.hash(Array("beacond simulated phone \(name)".utf8))
        // Both are 16 bytes: a scenario's irk is checked when it is read.
        key = IdentityResolvingKey(bytes: irk ?? Array(digest[0..<16]))!
        rotationNanoseconds = max(1, rotation.nanoseconds)
        let word = digest[16..<24].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        phaseNanoseconds = Int64(word % UInt64(rotationNanoseconds))
        salt = digest[24..<32].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// The address the phone advertises from at `nanoseconds` since the epoch (one AES-128).
    func address(atNanoseconds nanoseconds: Int64) -> BluetoothAddress {
        let period = (nanoseconds &+ phaseNanoseconds) / rotationNanoseconds
        var mix = SplitMix64(seed: salt ^ UInt64(bitPattern: period))
        return key.resolvablePrivateAddress(random: UInt32(truncatingIfNeeded: mix.next()))
    }
}
