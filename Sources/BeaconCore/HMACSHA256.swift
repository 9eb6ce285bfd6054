/// HMAC-SHA-256 (RFC 2104 over ``SHA256Hasher``; test vectors in RFC 4231): the code that signs
/// webhook request bodies (`X-Beacond-Signature: sha256=<hex>`, see `WebhookSink`) and a site's
/// gateway reports (`SignedReport`).
///
/// `HMAC(K, m) = SHA256((K′ ⊕ opad) ‖ SHA256((K′ ⊕ ipad) ‖ m))`, where `K′` is the key
/// zero-padded to 64 bytes (a key longer than 64 bytes is first replaced by its SHA-256 digest),
/// `ipad` is 64 bytes of 0x36 and `opad` 64 bytes of 0x5c. Keys and messages are raw bytes: pass
/// `string.utf8` for text.
///
/// This type only *computes* codes. Whoever verifies one (the webhook receiver) must compare the
/// received code with the expected one in constant time (Python's `hmac.compare_digest`, Go's
/// `hmac.Equal`, Node's `crypto.timingSafeEqual`), never with `==`, which stops at the first
/// differing byte. The key-derived state is not wiped from memory when the value goes away.
package struct HMACSHA256: Sendable {
    /// The size of a code, in bytes.
    package static let byteCount = SHA256Hasher.digestByteCount

    /// SHA-256 over `K′ ⊕ ipad`, then the message.
    private var inner: SHA256Hasher
    /// SHA-256 over `K′ ⊕ opad`, awaiting the inner digest.
    private var outer: SHA256Hasher

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
        var inner = SHA256Hasher()
        var outer = SHA256Hasher()
        withUnsafeTemporaryAllocation(byteCount: SHA256Hasher.blockByteCount, alignment: 8) { block in
            block.initializeMemory(as: UInt8.self, repeating: 0)
            if key.count > SHA256Hasher.blockByteCount {
                block.copyBytes(from: SHA256Hasher.hash(key))
            } else {
                block.copyBytes(from: key)
            }
            for index in block.indices { block[index] ^= 0x36 }
            inner.update(UnsafeRawBufferPointer(block))
            for index in block.indices { block[index] ^= 0x36 ^ 0x5c }
            outer.update(UnsafeRawBufferPointer(block))
            block.initializeMemory(as: UInt8.self, repeating: 0)
        }
        self.inner = inner
        self.outer = outer
    }

    /// Appends `bytes` to the message.
    package mutating func update(_ bytes: some Collection<UInt8>) {
        inner.update(bytes)
    }

    /// Appends the bytes in `bytes` to the message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        inner.update(bytes)
    }

    /// The code (32 bytes) for the message so far. The value itself is unchanged: more bytes may
    /// be appended after.
    package func finalize() -> [UInt8] {
        var outer = outer
        outer.update(inner.finalize())
        return outer.finalize()
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
