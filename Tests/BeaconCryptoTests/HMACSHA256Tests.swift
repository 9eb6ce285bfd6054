import BeaconCrypto
import Testing

/// SHA256Hasher and HMACSHA256 (the webhook signature) against published vectors (FIPS 180-2
/// appendix / NIST examples, RFC 4231) and against digests computed with Python's `hashlib` and
/// `hmac` (an oracle independent of this code), written here as literals.
///
/// The Python side of the generated messages: `msg(n) = bytes((i * 31 + 7) & 0xff for i in range(n))`,
/// `key(n) = bytes((i * 7 + 1) & 0xff for i in range(n))`; the digests are
/// `hashlib.sha256(msg(n)).hexdigest()` and `hmac.new(key(n), msg(100), hashlib.sha256).hexdigest()`.
@Suite("SHA-256 and HMAC-SHA-256")
struct HMACSHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static func message(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    static func key(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
    }

    // MARK: SHA-256

    @Test(
        "the FIPS 180 example messages hash to the published digests",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func publishedVectors(text: String, digest: String) {
        #expect(Self.hex(SHA256Hasher.hash(text.utf8)) == digest)
        #expect(Self.hex(SHA256Hasher.hash(Array(text.utf8))) == digest)
    }

    @Test("one million 'a' hashes to the published digest, whole or in 1000-byte pieces")
    func millionA() {
        let digest = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(Self.hex(SHA256Hasher.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == digest)
        let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        var hasher = SHA256Hasher()
        piece.withUnsafeBytes { bytes in
            for _ in 0..<1000 { hasher.update(bytes) }
        }
        #expect(Self.hex(hasher.finalize()) == digest)
    }

    /// Lengths around the padding edges: 55 (the length fits after 0x80), 56 (it no longer does:
    /// a second block), 63, 64, 65, and the same around the second block; digests from `hashlib`.
    @Test(
        "lengths at the padding edges match hashlib, whatever the pieces they are fed in",
        arguments: [
            (1, "ca358758f6d27e6cf45272937977a748fd88391db679ceda7dc7bf1f005ee879"),
            (55, "8aa994584139d128848eeebc4e815639ba5ab6e6e39574195a63ac4f14f7c43b"),
            (56, "ad574708f75c044c9b85de64cb568ee7711ff4f36448c6242f053ba8f6cc2b63"),
            (57, "5b46e502092be01b1100193e089fdda95638c12e19a1d24f308eb2c3d3ae849d"),
            (63, "280ed3e8ff1df845b2e7dfe6ac6cee817bef20e783cc65abc41b818b4d2fe076"),
            (64, "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd"),
            (65, "788367c73c7ddf4c53f65e68cc0d943e6227ab55b0e78ba63ace822b1c6301c0"),
            (111, "dd1413178fb627f9abbc041ffe39c44aa7aaa0e2e6d2ca5c4528ac7073a2da45"),
            (112, "a65c92dac124062d0ab951a42773cb04fc98d1d4bf8897b176f8cff3509d379e"),
            (119, "3d610547d68216dedf7435a4fb6260353911f6b3fd3f18805ddb8be285d726fe"),
            (120, "1f80156a804cb7862ad113e8200e9d74499723e7c7854d5f48776d3148e09656"),
            (127, "192409cd280e14b743642ad1343fbd3e82d9305de72c078117745a679210cc3d"),
            (128, "cc548ca2dec1f6fe4f58b2e27aa9c7521607df1130d140b55a4dad0665302356"),
            (129, "81e89a7b2911aaa7795f9e3d4910cb47d6cd2b00d83b8399481527261a1a7519"),
            (1000, "5097e7d587352f5097062ae679f37bda5802d9f875aba14c8cb4d1a188ada179"),
        ])
    func paddingEdges(length: Int, digest: String) {
        let message = Self.message(length)
        #expect(Self.hex(SHA256Hasher.hash(message)) == digest)
        message.withUnsafeBytes { #expect(Self.hex(SHA256Hasher.hash($0)) == digest) }
        // A collection without contiguous storage takes the copying path.
        #expect(Self.hex(SHA256Hasher.hash(message.lazy.map { $0 })) == digest)
        // Two pieces, split at every point.
        for split in 0...length {
            var hasher = SHA256Hasher()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(Self.hex(hasher.finalize()) == digest, "split at \(split)")
        }
        // Equal pieces of awkward sizes.
        for size in [1, 3, 55, 56, 63, 64, 65, 127, 300] {
            var hasher = SHA256Hasher()
            var start = 0
            while start < length {
                let end = min(start + size, length)
                hasher.update(message[start..<end])
                start = end
            }
            #expect(Self.hex(hasher.finalize()) == digest, "pieces of \(size)")
        }
    }

    @Test("finalize leaves the hasher usable: later bytes extend the same message")
    func finalizeThenContinue() {
        var hasher = SHA256Hasher()
        hasher.update("ab".utf8)
        #expect(Self.hex(hasher.finalize()) == "fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603")
        hasher.update("c".utf8)
        #expect(Self.hex(hasher.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    // MARK: HMAC-SHA-256

    struct RFC4231Case: Sendable, CustomTestStringConvertible {
        let number: Int
        let key: [UInt8]
        let data: [UInt8]
        /// The published code (case 5: its first 128 bits, as the RFC gives it).
        let code: String
        var testDescription: String { "RFC 4231 case \(number)" }
    }

    static let rfc4231Cases = [
        RFC4231Case(
            number: 1, key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
            code: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        RFC4231Case(
            number: 2, key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
            code: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        RFC4231Case(
            number: 3, key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
            code: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        RFC4231Case(
            number: 4, key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50),
            code: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        RFC4231Case(
            number: 5, key: [UInt8](repeating: 0x0c, count: 20), data: Array("Test With Truncation".utf8),
            code: "a3b6167473100ee06e0c796c2955552b"),
        RFC4231Case(
            number: 6, key: [UInt8](repeating: 0xaa, count: 131),
            data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            code: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        RFC4231Case(
            number: 7, key: [UInt8](repeating: 0xaa, count: 131),
            data: Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
            code: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test("the RFC 4231 test cases give the published codes", arguments: rfc4231Cases)
    func rfc4231(_ vector: RFC4231Case) {
        let code = HMACSHA256.authenticationCode(for: vector.data, key: vector.key)
        #expect(code.count == HMACSHA256.byteCount)
        // Case 5 publishes only the first 128 bits.
        #expect(Self.hex(Array(code.prefix(vector.code.count / 2))) == vector.code)
    }

    /// Keys of 0, 63 and 64 bytes are zero-padded; 65 and 200 bytes are hashed first.
    @Test(
        "keys either side of the block size match Python's hmac, one-shot or incremental",
        arguments: [
            (0, "2bc6d2c066d3deec1e27ef71f4690e4ef28cac53b8844cf2fc2407bf232d0659"),
            (63, "321a36b1f5827a064b2f66adbebf695857d5c0201ddeff8be2ac8161fe95fad5"),
            (64, "9e7e89e9525daf1f203ff17d83b7a374b179f16da6ccd45532f5eff25b16c5c6"),
            (65, "ec77cbfe36f5007fc07352b59f13786e2ccbb217aad60d4eaa0d5d5b8d18a16c"),
            (200, "e6a9e3eb00ca8cc605ec6af3a02c1baa93e64651e25f2c819ab034bb208227da"),
        ])
    func keyLengths(keyLength: Int, code: String) {
        let key = Self.key(keyLength), message = Self.message(100)
        #expect(Self.hex(HMACSHA256.authenticationCode(for: message, key: key)) == code)
        #expect(Self.hex(HMACSHA256.authenticationCode(for: message.lazy.map { $0 }, key: key.lazy.map { $0 })) == code)
        var hmac = HMACSHA256(key: key)
        hmac.update(message[..<37])
        message[37...].withUnsafeBytes { hmac.update($0) }
        #expect(Self.hex(hmac.finalize()) == code)
    }

    /// A webhook body and secret as WebhookSinkTests sends them, as text (`hmac.new(b"s3cret-key",
    /// b'{"event":"delivered","n":1}', hashlib.sha256).hexdigest()`).
    @Test("a webhook body signed with its secret matches Python's hmac")
    func webhookBody() {
        let code = HMACSHA256.authenticationCode(for: #"{"event":"delivered","n":1}"#.utf8, key: "s3cret-key".utf8)
        #expect(Self.hex(code) == "4fe61d4bec2395a7781f52120472ee0340e20a8060298854fea9d87fa47690bc")
    }
}
