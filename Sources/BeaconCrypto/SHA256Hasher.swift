import Crypto

/// SHA-256 (FIPS 180-4), computed by swift-crypto (BoringSSL on Linux), in the shape the rest of
/// the package uses: bytes in, a `[UInt8]` digest out.
///
/// Feed the message with `update(_:)` in pieces of any size, then read the 32-byte digest with
/// ``finalize()``; ``hash(_:)`` does both at once.
///
/// Named `SHA256Hasher`, not `SHA256Digest`: swift-crypto's `SHA256Digest` is the digest *value*,
/// and this type is the running hash. It is not for passwords (use a slow key-derivation function
/// for those).
package struct SHA256Hasher: Sendable {
    /// The size of a digest, in bytes.
    package static let digestByteCount = SHA256.byteCount
    /// The size of the blocks the message is processed in, in bytes (also HMAC's key block size).
    package static let blockByteCount = SHA256.blockByteCount

    private var hasher = SHA256()

    /// Creates a hasher for an empty message.
    package init() {}

    /// The SHA-256 digest (32 bytes) of `bytes`.
    package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The SHA-256 digest (32 bytes) of the bytes in `bytes`.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }

    /// Appends `bytes` to the message.
    package mutating func update(_ bytes: some Collection<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }) == nil {
            hasher.update(data: Array(bytes))
        }
    }

    /// Appends the bytes in `bytes` to the message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    /// The digest (32 bytes) of the message so far. The value itself is unchanged: more bytes may
    /// be appended after.
    package func finalize() -> [UInt8] {
        Array(hasher.finalize())
    }
}
