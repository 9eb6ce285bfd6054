import BeaconCore
import BeaconCrypto

/// An answer command (acknowledge, dismiss, unsuppress) sealed with its sender's key, so that the
/// daemon can tell who sent it, and that it was not sent before.
///
/// A sealed command is a first line, then the command as it would be sent unsealed (a JSON
/// object, or an instance key):
///
/// ```text
/// beacond-command v1 <name> <sequence> <code>
/// {"beacon": "ibeacon:…:1:1", "suppress": "1d"}
/// ```
///
/// - `name`: the key's name in `commands.keys` — the answer is recorded as by that name, whatever
///   the command's own `by` says;
/// - `sequence`: the sender's clock in nanoseconds since the epoch (a decimal number): the daemon
///   takes each sequence of a key once, and only within `window` of its own clock;
/// - `code`: HMAC-SHA-256 with the key, in lowercase hexadecimal, over
///   `<action>\n<name>\n<sequence>\n<command>` — the action is the topic's last level, so a seal
///   made for `acknowledge` does not open a `dismiss`.
///
/// With `openssl`: `printf '%s\n%s\n%s\n%s' dismiss head-nurse "$seq" "$body" | openssl dgst
/// -sha256 -mac HMAC -macopt hexkey:$KEY`; or `beacond seal-command`.
public enum CommandSeal {
    /// The first word of a sealed command.
    public static let marker = "beacond-command"
    /// The version this daemon reads.
    public static let version = "v1"

    /// Seals `command` for `action` with the key `name`, at `sequence`.
    public static func seal(
        _ command: some Collection<UInt8>, action: String, name: String, sequence: UInt64, key: [UInt8]
    ) -> [UInt8] {
        let code = authenticationCode(action: action, name: name, sequence: sequence, command: command, key: key)
        let head = "\(marker) \(version) \(name) \(sequence) \(hex(code))\n"
        return Array(head.utf8) + command
    }

    /// A sealed command's parts, not yet verified.
    public struct Parts: Sendable, Equatable {
        /// The key's name.
        public var name: String
        /// The sequence.
        public var sequence: UInt64
        /// The code, as sent.
        public var code: [UInt8]
        /// The command inside.
        public var command: [UInt8]

        /// Whether the code is right for `action` and `key` (compared in constant time).
        public func verifies(action: String, key: [UInt8]) -> Bool {
            let expected = CommandSeal.authenticationCode(
                action: action, name: name, sequence: sequence, command: command, key: key)
            return HMACSHA256.constantTimeEqual(expected, code)
        }
    }

    /// Whether `payload` is a sealed command (by its first word).
    public static func isSealed(_ payload: some Collection<UInt8>) -> Bool {
        payload.starts(with: (marker + " ").utf8)
    }

    /// Splits a sealed command; `nil` when its first line is not one of this version's.
    public static func open(_ payload: [UInt8]) -> Parts? {
        guard isSealed(payload), let newline = payload.firstIndex(of: UInt8(ascii: "\n")), newline <= 512 else {
            return nil
        }
        let words = payload[..<newline].split(separator: UInt8(ascii: " "))
        guard words.count == 5, String(decoding: words[1], as: UTF8.self) == version,
            let sequence = UInt64(String(decoding: words[3], as: UTF8.self)),
            let code = HexDigits.bytes(words[4]), code.count == HMACSHA256.byteCount
        else { return nil }
        let name = String(decoding: words[2], as: UTF8.self)
        guard !name.isEmpty, name.utf8.count <= 64 else { return nil }
        return Parts(name: name, sequence: sequence, code: code, command: Array(payload[(newline + 1)...]))
    }

    static func authenticationCode(
        action: String, name: String, sequence: UInt64, command: some Collection<UInt8>, key: [UInt8]
    ) -> [UInt8] {
        var code = HMACSHA256(key: key)
        code.update(Array("\(action)\n\(name)\n\(sequence)\n".utf8))
        code.update(command)
        return code.finalize()
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
