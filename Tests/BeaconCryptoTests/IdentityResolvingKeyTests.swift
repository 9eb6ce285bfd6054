import BeaconCore
import BeaconCrypto
import Foundation
import Testing

/// The random address hash `ah` and the forms keys are written in. The expected hashes are the
/// Core Specification's sample data (Vol 3, Part H, Appendix D.7) and, for the other values,
/// Python's `cryptography` (AES-128-ECB of 13 zero bytes and the prand), an oracle independent of
/// this code:
/// `Cipher(algorithms.AES(key), modes.ECB()).encryptor().update(bytes(13) + prand.to_bytes(3, "big"))[-3:]`.
@Suite("Identity resolving keys")
struct IdentityResolvingKeyTests {
    /// The specification's sample IRK, most significant byte first.
    static let sampleHex = "ec0234a357c8ad05341010a60a397d9b"
    static var sample: IdentityResolvingKey { IdentityResolvingKey(bytes: hexBytes(sampleHex))! }

    static func hexBytes(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { offset in
            let start = text.index(text.startIndex, offsetBy: offset)
            return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    @Test("the specification's sample: prand 708194 hashes to 0dfbaa")
    func specificationVector() {
        #expect(Self.sample.hash(prand: 0x70_8194) == 0x0D_FBAA)
    }

    @Test(
        "other prands hash as Python's AES says, under the key and under its reverse",
        arguments: [
            (UInt32(0x40_0001), UInt32(0xA7_12B0), UInt32(0x4F_F9BE)),
            (0x7F_FFFF, 0xD5_9A83, 0xE5_B1FA),
            (0x5A_5A5A, 0x5E_E581, 0x05_8E04),
        ])
    func pythonVectors(prand: UInt32, hash: UInt32, reversedKeyHash: UInt32) {
        #expect(Self.sample.hash(prand: prand) == hash)
        let reversed = IdentityResolvingKey(bytes: Self.hexBytes(Self.sampleHex).reversed())!
        #expect(reversed.hash(prand: prand) == reversedKeyHash)
    }

    @Test("70:81:94:0D:FB:AA resolves; a hash one off does not")
    func resolvesTheSampleAddress() {
        #expect(Self.sample.resolves(BluetoothAddress("70:81:94:0D:FB:AA")!, type: .random))
        #expect(!Self.sample.resolves(BluetoothAddress("70:81:94:0D:FB:AB")!, type: .random))
        #expect(!Self.sample.resolves(BluetoothAddress("70:81:95:0D:FB:AA")!, type: .random))
    }

    @Test(
        "public, identity, static and non-resolvable addresses never resolve, whatever their low bits",
        arguments: [
            ("70:81:94:0D:FB:AA", AddressType.public),
            ("70:81:94:0D:FB:AA", .publicIdentity),
            ("70:81:94:0D:FB:AA", .randomIdentity),
            ("70:81:94:0D:FB:AA", .anonymous),
            // The same prand's low bits with the top two bits 11 (static) and 00 (non-resolvable).
            ("F0:81:94:0D:FB:AA", .random),
            ("30:81:94:0D:FB:AA", .random),
        ])
    func otherAddressesNeverResolve(text: String, type: AddressType) {
        #expect(!Self.sample.resolves(BluetoothAddress(text)!, type: type))
    }

    @Test("a made address is an RPA of its key and of no other")
    func madeAddresses() {
        let other = IdentityResolvingKey(bytes: [UInt8](repeating: 7, count: 16))!
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let address = Self.sample.resolvablePrivateAddress(random: generator.next())
            #expect(RandomAddressKind(address) == .resolvablePrivate)
            #expect(Self.sample.resolves(address, type: .random))
            // A chance match has probability 2⁻²⁴ per address: 200 addresses leave ~1e-5.
            #expect(!other.resolves(address, type: .random))
        }
        // prand's random part may not be all 0 or all 1.
        #expect(Self.sample.resolvablePrivateAddress(random: 0).resolvablePrivateRandomPart == 0x40_0001)
        #expect(Self.sample.resolvablePrivateAddress(random: 0x3F_FFFF).resolvablePrivateRandomPart == 0x7F_FFFE)
    }

    @Test("a key is 16 bytes, and its description never shows them")
    func keyLengthAndDescription() {
        #expect(IdentityResolvingKey(bytes: [UInt8](repeating: 1, count: 15)) == nil)
        #expect(IdentityResolvingKey(bytes: [UInt8](repeating: 1, count: 17)) == nil)
        #expect(!"\(Self.sample)".lowercased().contains("ec02"))
        var dumped = ""
        dump(Self.sample, to: &dumped)
        dump(IdentityResolvingKeyText.Candidate(order: .mostSignificantFirst, key: Self.sample), to: &dumped)
        #expect(!dumped.lowercased().contains("ec02") && !dumped.contains("236"), "\(dumped)")
    }

    // MARK: Written forms

    /// The address the sample key resolves, to tell which candidate is the key.
    static let sampleAddress = BluetoothAddress("70:81:94:0D:FB:AA")!

    /// The orders of the candidates that resolve the sample address.
    static func resolvingOrders(_ text: String) throws -> [IdentityResolvingKeyOrder] {
        try IdentityResolvingKeyText(parsing: text).candidates.filter { $0.key.resolves(sampleAddress, type: .random) }
            .map(\.order)
    }

    @Test("Home Assistant's and ESPresense's hex: both orders offered, and most significant first resolves")
    func homeAssistantHex() throws {
        let text = try IdentityResolvingKeyText(parsing: Self.sampleHex)
        #expect(text.form == .hex)
        #expect(text.isOrderAmbiguous)
        #expect(text.candidates.map(\.order) == [.mostSignificantFirst, .leastSignificantFirst])
        #expect(try Self.resolvingOrders(Self.sampleHex) == [.mostSignificantFirst])
        #expect(try Self.resolvingOrders("0x" + Self.sampleHex.uppercased() + "\n") == [.mostSignificantFirst])
        #expect(try Self.resolvingOrders("ec:02:34:a3:57:c8:ad:05:34:10:10:a6:0a:39:7d:9b") == [.mostSignificantFirst])
    }

    @Test("BlueZ's and Theengs' reversed hex resolves least significant first")
    func reversedHex() throws {
        #expect(try Self.resolvingOrders("9b7d390aa610103405adc857a33402ec") == [.leastSignificantFirst])
    }

    @Test("the Apple keychain's base64 resolves least significant first, offered first")
    func keychainBase64() throws {
        let text = try IdentityResolvingKeyText(parsing: "m305CqYQEDQFrchXozQC7A==")
        #expect(text.form == .base64)
        #expect(text.candidates.first?.order == .leastSignificantFirst)
        #expect(try Self.resolvingOrders("m305CqYQEDQFrchXozQC7A==") == [.leastSignificantFirst])
    }

    @Test("a BlueZ info file gives one candidate, least significant first, that resolves")
    func blueZInfoFile() throws {
        let info = """
            [General]
            Name=Ada's phone
            AddressType=public

            [IdentityResolvingKey]
            Key=9B7D390AA610103405ADC857A33402EC

            [LongTermKey]
            Key=00112233445566778899AABBCCDDEEFF
            """
        let text = try IdentityResolvingKeyText(parsing: info)
        #expect(text.form == .blueZInfo)
        #expect(!text.isOrderAmbiguous)
        #expect(try Self.resolvingOrders(info) == [.leastSignificantFirst])
    }

    @Test(
        "anything else is refused with its shape, never its characters",
        arguments: [
            "ec0234a357c8ad05341010a60a397d", // 30 digits
            "ec0234a357c8ad05341010a60a397d9bzz",
            "not a key at all",
            "",
            "[IdentityResolvingKey]\nKey=ec0234",
            "[IdentityResolvingKey]\nOther=1",
        ])
    func refused(text: String) {
        #expect {
            try IdentityResolvingKeyText(parsing: text)
        } throws: { error in
            let message = "\(error)"
            // The text's last characters (its key material, in the refused files) never appear.
            return message.contains("32 hexadecimal digits") && (text.count < 6 || !message.contains(text.suffix(6)))
        }
    }
}
