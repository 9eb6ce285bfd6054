import Crypto

/// HMAC-SHA-256 (RFC 2104; test vectors in RFC 4231), computed by swift-crypto: the code that
/// signs webhook request bodies (`X-Beacond-Signature: sha256=<hex>`, see `WebhookSink`), a site's
/// gateway reports (`SignedReport`), sealed commands and remote alert documents.
///
/// Keys and messages are raw bytes: pass `string.utf8` for text. A key longer than a SHA-256 block
/// (64 bytes) is first replaced by its digest, as RFC 2104 says.
///
/// This type only *computes* codes. Whoever verifies one must compare the received code with the
/// expected one in constant time (``constantTimeEqual(_:_:)`` here; Python's
/// `hmac.compare_digest`, Go's `hmac.Equal`), never with `==`, which stops at the first differing
/// byte.
package struct HMACSHA256: Sendable {
    /// The size of a code, in bytes.
    package static let byteCount = SHA256Hasher.digestByteCount

    private var code: HMAC<SHA256>

    /// The HMAC-SHA-256 (32 bytes) of `message` keyed with `key`.
    ///
    /// For a webhook body and its secret:
    /// `HMACSHA256.authenticationCode(for: body.utf8, key: secret.utf8)`.
    package static func authenticationCode(
        for message: some Collection<UInt8>,
        key: some Collection<UInt8>
    ) -> [UInt8] {
        var code = HMACSHA256(key: key)
        code.update(message)
        return code.finalize()
    }

    /// The code as lowercase hex: what `X-Beacond-Signature` carries after `sha256=` (webhooks,
    /// signed remote alert documents).
    package static func hexAuthenticationCode(
        for message: some Collection<UInt8>, key: some Collection<UInt8>
    ) -> String {
        authenticationCode(for: message, key: key).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Starts a code keyed with `key` (any length; 32 to 64 random bytes is the useful range).
    package init(key: some Collection<UInt8>) {
        code = HMAC<SHA256>(key: SymmetricKey(data: Array(key)))
    }

    /// Appends `bytes` to the message.
    package mutating func update(_ bytes: some Collection<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ code.update(data: UnsafeRawBufferPointer($0)) }) == nil {
            code.update(data: Array(bytes))
        }
    }

    /// Appends the bytes in `bytes` to the message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        code.update(data: bytes)
    }

    /// The code (32 bytes) for the message so far. The value itself is unchanged: more bytes may
    /// be appended after.
    package func finalize() -> [UInt8] {
        Array(code.finalize())
    }

    /// Whether two codes are equal, in time that depends only on their lengths (not on where they
    /// first differ): how a received code is checked.
    package static func constantTimeEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
