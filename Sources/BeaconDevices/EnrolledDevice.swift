import BeaconCore
import BeaconCrypto

/// A phone, watch or other device that advertises from resolvable private addresses, enrolled
/// under a name with its identity resolving key (`devices:` in a configuration).
///
/// Its identity is `BeaconID.device(named:)`: to ranging, the site, strategies and alerts it is
/// a beacon like any other.
public struct EnrolledDevice: Sendable {
    /// The identity it is ranged under (`device:NAME`).
    public let id: BeaconID
    /// The keys its written key may stand for (one when the form settled the byte order, or the
    /// configuration gave it).
    public let candidates: [IdentityResolvingKeyText.Candidate]
    /// Its RSSI at 1 m in dBm (phones differ by several dB); `nil` leaves ranging's default.
    public let measuredPower: Int8?
    /// Whether an arrival needs a second address (``PrivateAddressResolver``): on by default, so
    /// that a stranger's address that resolves by chance (1 in 2²⁴ per address and key) is never
    /// taken for the device.
    public let corroborates: Bool

    /// A device enrolled as `id` with the keys `candidates`.
    /// - Parameters:
    ///   - id: its identity, of kind `BeaconID.Kind.device`.
    ///   - candidates: the keys its written key may stand for, the likelier first; not empty.
    ///   - measuredPower: its RSSI at 1 m, dBm.
    ///   - corroborates: whether an arrival needs a second address.
    public init(
        id: BeaconID, candidates: [IdentityResolvingKeyText.Candidate], measuredPower: Int8? = nil,
        corroborates: Bool = true
    ) {
        precondition(id.kind == .device && !candidates.isEmpty, "a device needs a device identity and a key")
        self.id = id
        self.candidates = candidates
        self.measuredPower = measuredPower
        self.corroborates = corroborates
    }

    /// Whether `bytes` are this device's key, in either byte order (compared in constant time):
    /// how a key a node names a device by (ESPresense's `irk:` ids) is matched.
    public func hasKey(_ bytes: [UInt8]) -> Bool {
        let reversed = Array(bytes.reversed())
        return candidates.contains { $0.key.hasBytes(bytes) || $0.key.hasBytes(reversed) }
    }
}
