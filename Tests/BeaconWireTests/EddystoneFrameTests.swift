import BeaconWire
import Testing

@Suite("EddystoneFrame")
struct EddystoneFrameTests {
    /// Decodes the service data structure (the last structure) of `bytes`.
    static func frame<R>(_ bytes: [UInt8], _ body: (EddystoneFrame?) -> R) -> R {
        bytes.withUnsafeBytes { raw in
            var iterator = ADStructureIterator(raw)
            var last: ADStructure?
            while let s = try? iterator.next() { last = s }
            guard let last, last.type == .serviceData16 else { return body(nil) }
            return body(EddystoneFrame(serviceData: last.data))
        }
    }

    @Test("UID frame")
    func uid() {
        Self.frame(AnnotatedFrames.eddystoneUID) { frame in
            guard case .uid(let uid) = frame else {
                Issue.record("\(String(describing: frame))")
                return
            }
            #expect(
                uid
                    == EddystoneUID(
                        txPowerAt0m: -18, namespaceHigh: 0x8B0C, namespaceLow: 0xA750_E18A_4E8A_A83A,
                        instance: 1234))
            #expect(uid.measuredPowerAt1m == -59)
        }
    }

    @Test("URL frame: scheme prefix and expansion codes")
    func url() {
        Self.frame(AnnotatedFrames.eddystoneURL) { frame in
            guard case .url(let url) = frame else {
                Issue.record("\(String(describing: frame))")
                return
            }
            #expect(url.txPowerAt0m == -21)
            #expect(url.schemeCode == 1)
            #expect(url.url == "https://www.example.com/")
        }
    }

    @Test("every scheme and expansion code expands as the spec lists it", arguments: Array(0..<14))
    func expansionCodes(code: Int) throws {
        let expansions = [
            ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
            ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
        ]
        let schemes = ["http://www.", "https://www.", "http://", "https://"]
        let scheme = UInt8(code % 4)
        let frame = try #require(EddystoneURL(txPowerAt0m: 0, schemeCode: scheme, encodedURL: [0x61, UInt8(code)]))
        #expect(frame.url == schemes[Int(scheme)] + "a" + expansions[code])
    }

    @Test(
        "URL compression picks the longest scheme and expansions",
        arguments: [
            ("https://www.example.com/", 1 as UInt8, Array("example".utf8) + [0x00]),
            ("http://goo.gl/abc", 2, Array("goo.gl/abc".utf8)),
            ("https://a.info/x.org", 3, [0x61, 0x04, 0x78, 0x08]),
            ("http://www.b.gov", 0, [0x62, 0x0D]),
        ])
    func compression(text: String, scheme: UInt8, encoded: [UInt8]) throws {
        let frame = try #require(EddystoneURL(url: text, txPowerAt0m: -20))
        #expect(frame.schemeCode == scheme)
        #expect(frame.encodedURL.array == encoded)
        #expect(frame.url == text)
    }

    @Test("URLs without a known scheme or longer than 17 encoded bytes are refused")
    func refusedURLs() {
        #expect(EddystoneURL(url: "ftp://example.com", txPowerAt0m: 0) == nil)
        #expect(EddystoneURL(url: "https://abcdefghijklmnopqr", txPowerAt0m: 0) == nil)
    }

    @Test("TLM frame: big-endian battery, 8.8 temperature, counters")
    func tlm() {
        Self.frame(AnnotatedFrames.eddystoneTLM) { frame in
            guard case .tlm(let tlm) = frame else {
                Issue.record("\(String(describing: frame))")
                return
            }
            #expect(
                tlm
                    == EddystoneTLM(
                        batteryMillivolts: 3000, temperatureRaw: 0x1780, advertisingCount: 12345,
                        uptimeTenthsOfSeconds: 123_456))
            #expect(tlm.temperatureCelsius == 23.5)
        }
    }

    @Test("TLM temperature 0x8000 means not supported; negative values are two's complement")
    func tlmTemperature() {
        #expect(
            EddystoneTLM(
                batteryMillivolts: 0, temperatureRaw: Int16.min, advertisingCount: 0,
                uptimeTenthsOfSeconds: 0
            ).temperatureCelsius == nil)
        #expect(
            EddystoneTLM(
                batteryMillivolts: 0, temperatureRaw: Int16(bitPattern: 0xFF80), advertisingCount: 0,
                uptimeTenthsOfSeconds: 0
            ).temperatureCelsius == -0.5)
    }

    @Test("EID and encrypted TLM frames are kept raw")
    func rawFrames() {
        Self.frame(AnnotatedFrames.eddystoneEID) { frame in
            guard case .eid(let bytes) = frame else {
                Issue.record("\(String(describing: frame))")
                return
            }
            #expect(Array(bytes) == [0x30, 0xEC, 1, 2, 3, 4, 5, 6, 7, 8])
        }
        var encrypted = AnnotatedFrames.eddystoneTLM
        encrypted[9] = 0x01 // TLM version 1: encrypted
        Self.frame(encrypted) { frame in
            guard case .other(let type, let bytes) = frame else {
                Issue.record("\(String(describing: frame))")
                return
            }
            #expect(type == 0x20 && bytes.count == 14)
        }
    }

    @Test("a UID frame too short to decode is kept raw")
    func shortUID() {
        let bytes: [UInt8] = [0x06, 0x16, 0xAA, 0xFE, 0x00, 0xEE, 0x01]
        Self.frame(bytes) { frame in
            guard case .other(0x00, let raw) = frame else {
                Issue.record("\(String(describing: frame))")
                return
            }
            #expect(raw.count == 3)
        }
    }
}
