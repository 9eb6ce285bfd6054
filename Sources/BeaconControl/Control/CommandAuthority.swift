import BeaconCore
import BeaconCrypto
import Foundation
import Synchronization

/// Who may answer alerts over a channel that anyone connected can write to (MQTT commands): the
/// keys that seal commands (``CommandSeal``), one per operator or integration, and the tokens of
/// clients that cannot seal (Home Assistant's button sends a fixed payload). The name an answer
/// is recorded under is the key's or the token's, never what the command says.
///
/// With neither, every well-formed command is taken, under the name it gives (the channel is
/// open: protect it with the broker's ACLs). With either, a command that is not sealed with a
/// known key, or does not carry a known token, is refused.
public final class CommandAuthority: Sendable {
    /// A command taken: who sent it (`nil` on an open channel) and the command itself.
    public struct Accepted: Sendable, Equatable {
        /// The key's or token's name.
        public var name: String?
        /// The command without its seal.
        public var command: [UInt8]

        /// A command taken from `name`.
        public init(name: String?, command: [UInt8]) {
            self.name = name
            self.command = command
        }
    }

    /// Why a command was refused.
    public enum Refusal: String, Error, Sendable, CaseIterable {
        /// Not sealed, and no token, while keys or tokens are configured.
        case unsigned
        /// Sealed with a key name the daemon does not know.
        case unknownKey = "unknown-key"
        /// Its first line is not a seal of this version.
        case malformedSeal = "malformed-seal"
        /// The code is not the named key's for this command and action.
        case badSignature = "bad-signature"
        /// A sequence taken already, or outside the window of the daemon's clock.
        case replayed
        /// A token that is none of the configured ones.
        case badToken = "bad-token"
    }

    /// The keys, by name.
    public let keys: [String: [UInt8]]
    /// The tokens, by name.
    public let tokens: [String: String]
    /// How far a sealed command's sequence may be from the daemon's clock.
    public let window: Duration
    /// The sequences taken from each key within the window.
    private let taken = Mutex<[String: [UInt64]]>([:])
    /// The most sequences remembered per key: past it, the oldest is forgotten and sequences
    /// up to it are refused.
    static let rememberedPerKey = 1024
    private let floors = Mutex<[String: UInt64]>([:])

    /// An authority with `keys` and `tokens` (both empty: an open channel).
    public init(keys: [String: [UInt8]] = [:], tokens: [String: String] = [:], window: Duration = .seconds(60)) {
        self.keys = keys
        self.tokens = tokens
        self.window = window
    }

    /// Whether any command is taken (no key, no token).
    public var isOpen: Bool { keys.isEmpty && tokens.isEmpty }

    /// Checks a command received for `action` at `now` (the daemon's clock).
    public func check(action: String, payload: [UInt8], now: Timestamp) -> Result<Accepted, Refusal> {
        if CommandSeal.isSealed(payload) {
            guard let parts = CommandSeal.open(payload) else { return .failure(.malformedSeal) }
            guard let key = keys[parts.name] else { return .failure(.unknownKey) }
            guard parts.verifies(action: action, key: key) else { return .failure(.badSignature) }
            guard take(parts.sequence, name: parts.name, now: now) else { return .failure(.replayed) }
            return .success(Accepted(name: parts.name, command: parts.command))
        }
        if isOpen { return .success(Accepted(name: nil, command: payload)) }
        guard !tokens.isEmpty, let token = Self.token(in: payload) else { return .failure(.unsigned) }
        let tokenBytes = Array(token.utf8)
        var matched: String?
        for (name, secret) in tokens.sorted(by: { $0.key < $1.key })
        where HMACSHA256.constantTimeEqual(Array(secret.utf8), tokenBytes) {
            matched = name
        }
        guard let name = matched else { return .failure(.badToken) }
        return .success(Accepted(name: name, command: payload))
    }

    /// Takes `sequence` of key `name` once, within the window of `now`.
    private func take(_ sequence: UInt64, name: String, now: Timestamp) -> Bool {
        let time = Timestamp(nanosecondsSinceEpoch: Int64(clamping: sequence))
        let age = now - time
        guard age <= window, age >= .zero - window else { return false }
        let oldest = UInt64(clamping: now.advanced(by: .zero - window).nanosecondsSinceEpoch)
        let floor = floors.withLock { $0[name] ?? 0 }
        guard sequence > floor else { return false }
        return taken.withLock { taken in
            var sequences = taken[name, default: []]
            sequences.removeAll { $0 < oldest }
            guard !sequences.contains(sequence) else { return false }
            sequences.append(sequence)
            if sequences.count > Self.rememberedPerKey {
                let forgotten = sequences.removeFirst()
                floors.withLock { $0[name] = max($0[name] ?? 0, forgotten) }
            }
            taken[name] = sequences
            return true
        }
    }

    /// The `token` of a JSON command, if it has one.
    static func token(in payload: [UInt8]) -> String? {
        guard payload.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }) == UInt8(ascii: "{"),
            let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
        else { return nil }
        return object["token"] as? String
    }
}
