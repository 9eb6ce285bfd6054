import BeaconCore
import Foundation
import Testing

@testable import BeaconWire

@Suite("OutputBuffer")
struct OutputBufferTests {
    static func text(_ build: (OutputBuffer) -> Void) -> String {
        let buffer = OutputBuffer(capacity: 64)
        build(buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test(
        "decimal numbers",
        arguments: [
            (0, "0"), (7, "7"), (-62, "-62"), (20594, "20594"),
            (Int.min, "-9223372036854775808"), (Int.max, "9223372036854775807"),
        ])
    func decimals(value: Int, expected: String) {
        #expect(Self.text { $0.append(decimal: value) } == expected)
    }

    @Test("Unix seconds with six decimals, before and after the epoch")
    func unixSeconds() {
        #expect(
            Self.text { $0.append(unixSeconds: Timestamp(nanosecondsSinceEpoch: 1_612_150_079_789_053_999)) }
                == "1612150079.789053")
        #expect(Self.text { $0.append(unixSeconds: Timestamp(nanosecondsSinceEpoch: 5_000)) } == "0.000005")
        #expect(Self.text { $0.append(unixSeconds: Timestamp(nanosecondsSinceEpoch: -1_000)) } == "-1.999999")
    }

    @Test("hex, addresses and UUIDs")
    func hexForms() throws {
        #expect(Self.text { $0.append(hex: 0x13, digits: 4) } == "0x0013")
        #expect(Self.text { $0.append(hex: 0x4, digits: 2) } == "0x04")
        let address = try #require(BluetoothAddress("A4:C1:38:BF:6F:AB"))
        #expect(Self.text { $0.append(address: address) } == "a4:c1:38:bf:6f:ab")
        #expect(
            Self.text { $0.append(uuidHigh: 0x494E_5445_4C4C_495F, low: 0x524F_434B_535F_4857) }
                == "494E5445-4C4C-495F-524F-434B535F4857")
        #expect(Self.text { b in [UInt8]([0x02, 0x01, 0xFF]).withUnsafeBytes { b.append(hexBytes: $0) } } == "0201ff")
    }

    @Test("the buffer grows past its first capacity and keeps its bytes")
    func growth() {
        let buffer = OutputBuffer(capacity: 64)
        for i in 0..<1_000 { buffer.append(decimal: i % 10) }
        #expect(buffer.count == 1_000)
        #expect(buffer.bytes == (0..<1_000).map { UInt8(ascii: "0") + UInt8($0 % 10) })
        buffer.removeAll()
        #expect(buffer.count == 0)
    }

    @Test("JSON strings escape quotes, backslashes and control bytes and repair bad UTF-8")
    func jsonStrings() {
        let raw: [UInt8] = [0x41, 0x22, 0x5C, 0x0A, 0x00, 0xFF, 0x42]
        #expect(
            Self.text { b in raw.withUnsafeBytes { b.append(jsonString: $0) } }
                == "\"A\\\"\\\\\\n\\u0000\u{FFFD}B\"")
    }
}

@Suite("JSON strings: one escaping rule")
struct JSONStringEscapeTests {
    @Test("JSONWriter and the per-packet output escape every ASCII byte alike, and JSONSerialization reads it back")
    func sameRule() throws {
        for byte in UInt8(0)..<0x80 {
            var writer = JSONWriter()
            writer.value(String(decoding: [byte], as: UTF8.self))
            let buffer = OutputBuffer()
            [byte].withUnsafeBytes { buffer.append(jsonString: $0) }
            let fromBuffer = buffer.bytes
            #expect(writer.bytes == fromBuffer, "byte \(byte)")
            let decoded = try JSONSerialization.jsonObject(with: Data(fromBuffer), options: .fragmentsAllowed) as? String
            #expect(decoded == String(decoding: [byte], as: UTF8.self), "byte \(byte)")
        }
    }
}
