/// SHA-256 (FIPS 180-4, section 6.2) in plain Swift, for ``HMACSHA256`` (webhook request and gateway report signing).
///
/// Feed the message with `update(_:)` in pieces of any size, then read the 32-byte digest with
/// ``finalize()``; ``hash(_:)`` does both at once. Whole 64-byte blocks are compressed straight
/// from the caller's bytes, only a partial block is kept (in a fixed 64-byte field), and the
/// message schedule lives in a stack allocation, so hashing allocates nothing but the returned array.
///
/// Named `SHA256Hasher`, not `SHA256Digest`: swift-crypto's `SHA256Digest` is the digest *value*,
/// and this type is the running hash.
///
/// The computation does not branch on, or index memory with, the message or key bytes. It is not
/// hardened beyond that (the state is not wiped when it goes away), and it is not for passwords
/// (use a slow key-derivation function for those).
package struct SHA256Hasher: Sendable {
    /// The size of a digest, in bytes.
    package static let digestByteCount = 32
    /// The size of the blocks the message is processed in, in bytes (also HMAC's key block size).
    package static let blockByteCount = 64

    /// Eight 32-bit words: the hash value H(i) (FIPS 180-4, 5.3.3 for the initial value).
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    private var state: State = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
        0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// The bytes of a partial block, waiting for the rest of it (the first `buffered` bytes count).
    private var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var buffered = 0
    /// The message length so far, in bytes (the padding records it in bits, modulo 2⁶⁴, as FIPS 180-4 does).
    private var length: UInt64 = 0

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
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Appends `bytes` to the message. Contiguous collections (arrays, `String.UTF8View` of a
    /// native string, `Data`, slices of these) are read in place; others are copied through a small
    /// stack buffer.
    package mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        guard done == nil else { return }
        withUnsafeTemporaryAllocation(byteCount: 256, alignment: 8) { chunk in
            var count = 0
            for byte in bytes {
                chunk[count] = byte
                count &+= 1
                if count == chunk.count {
                    update(UnsafeRawBufferPointer(chunk))
                    count = 0
                }
            }
            update(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
    }

    /// Appends the bytes in `bytes` to the message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var input = bytes.baseAddress, !bytes.isEmpty else { return }
        var remaining = bytes.count
        length &+= UInt64(truncatingIfNeeded: remaining)
        var state = self.state
        defer { self.state = state }
        if buffered > 0 {
            // Complete the waiting partial block first.
            let taken = min(Self.blockByteCount - buffered, remaining)
            let offset = buffered
            withUnsafeMutableBytes(of: &buffer) { $0.baseAddress!.advanced(by: offset).copyMemory(from: input, byteCount: taken) }
            buffered += taken
            input += taken
            remaining -= taken
            guard buffered == Self.blockByteCount else { return }
            withUnsafeBytes(of: &buffer) { Self.compress(&state, blocks: $0.baseAddress!, count: 1) }
            buffered = 0
        }
        let wholeBlocks = remaining / Self.blockByteCount
        if wholeBlocks > 0 {
            Self.compress(&state, blocks: input, count: wholeBlocks)
            input += wholeBlocks * Self.blockByteCount
            remaining -= wholeBlocks * Self.blockByteCount
        }
        if remaining > 0 {
            withUnsafeMutableBytes(of: &buffer) { $0.baseAddress!.copyMemory(from: input, byteCount: remaining) }
            buffered = remaining
        }
    }

    /// The digest (32 bytes) of the message so far. The hasher itself is unchanged: more bytes may
    /// be appended after, and a later `finalize()` covers them too.
    package func finalize() -> [UInt8] {
        var hasher = self
        let bitLength = length &<< 3
        // Padding (FIPS 180-4, 5.1.1): 0x80, zeros up to 56 bytes modulo 64, the length in bits
        // as a big-endian UInt64. 1 to 64 bytes before the length; 9 to 72 in all.
        let lengthOffset = (buffered < 56 ? 56 : 120) - buffered
        withUnsafeTemporaryAllocation(byteCount: 72, alignment: 8) { tail in
            tail.initializeMemory(as: UInt8.self, repeating: 0)
            tail[0] = 0x80
            tail.storeBytes(of: bitLength.bigEndian, toByteOffset: lengthOffset, as: UInt64.self)
            hasher.update(UnsafeRawBufferPointer(rebasing: tail[..<(lengthOffset + 8)]))
        }
        assert(hasher.buffered == 0)
        return [UInt8](unsafeUninitializedCapacity: Self.digestByteCount) { digest, count in
            let output = UnsafeMutableRawBufferPointer(digest)
            withUnsafeBytes(of: hasher.state) { words in
                for index in 0..<8 {
                    let word = words.load(fromByteOffset: index &* 4, as: UInt32.self)
                    output.storeBytes(of: word.bigEndian, toByteOffset: index &* 4, as: UInt32.self)
                }
            }
            count = Self.digestByteCount
        }
    }

    // MARK: The compression function

    /// The round constants K (FIPS 180-4, 4.2.2).
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    @inline(__always)
    private static func rotateRight(_ x: UInt32, _ n: UInt32) -> UInt32 {
        (x >> n) | (x << (32 - n))
    }

    /// Runs the compression function (FIPS 180-4, 6.2.2) over `count` consecutive 64-byte blocks
    /// at `blocks` (any alignment).
    private static func compress(_ state: inout State, blocks: UnsafeRawPointer, count: Int) {
        roundConstants.withUnsafeBufferPointer { constants in
            let k = constants.baseAddress!
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                let w = schedule.baseAddress!
                var (h0, h1, h2, h3, h4, h5, h6, h7) = state
                var block = blocks
                for _ in 0..<count {
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let x = w[t &- 15], y = w[t &- 2]
                        let sigma0 = rotateRight(x, 7) ^ rotateRight(x, 18) ^ (x >> 3)
                        let sigma1 = rotateRight(y, 17) ^ rotateRight(y, 19) ^ (y >> 10)
                        w[t] = w[t &- 16] &+ sigma0 &+ w[t &- 7] &+ sigma1
                    }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for t in 0..<64 {
                        let bigSigma1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
                        let choose = (e & f) ^ (~e & g)
                        let t1 = h &+ bigSigma1 &+ choose &+ k[t] &+ w[t]
                        let bigSigma0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ bigSigma0 &+ majority)
                    }
                    h0 &+= a
                    h1 &+= b
                    h2 &+= c
                    h3 &+= d
                    h4 &+= e
                    h5 &+= f
                    h6 &+= g
                    h7 &+= h
                    block += blockByteCount
                }
                state = (h0, h1, h2, h3, h4, h5, h6, h7)
            }
        }
    }
}
