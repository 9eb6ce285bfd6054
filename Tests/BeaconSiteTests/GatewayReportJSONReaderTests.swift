import BeaconCore
import BeaconSiteReport
import Testing

/// The JSON reader against `JSONDecoder`, which read every JSON report before it (issue 30):
/// the same records from every report either takes, the same refusals, and refusals where
/// `JSONDecoder` was lax about what is not JSON.
@Suite("Gateway reports: the JSON reader against JSONDecoder")
struct GatewayReportJSONReaderTests {
    typealias Outcome = Result<(GatewayReportHeader, [GatewayRecord]), GatewayReportError>

    static func reader(_ text: some Collection<UInt8>) -> Outcome {
        let bytes = Array(text)
        return Result { () throws(GatewayReportError) in try GatewayReportDecoder.decode(bytes) }
    }

    static func reference(_ text: some Collection<UInt8>) -> Outcome {
        Array(text).withUnsafeBytes { buffer in
            Result { () throws(GatewayReportError) in
                let report = try ReferenceJSONReportDecoder.decode(buffer)
                return (report.header, report.records)
            }
        }
    }

    /// Both took it with the same values, or both refused it for the same kind of reason (a
    /// JSON error's wording differs; any other refusal is the same).
    static func agree(_ a: Outcome, _ b: Outcome) -> Bool {
        switch (a, b) {
        case let (.success(x), .success(y)): return x.0 == y.0 && x.1 == y.1
        case let (.failure(.invalidField(x)), .failure(.invalidField(y))):
            return x.hasPrefix("JSON: ") ? y.hasPrefix("JSON: ") : x == y
        case let (.failure(x), .failure(y)): return x == y
        default: return false
        }
    }

    static let time = Timestamp(nanosecondsSinceEpoch: 1_735_722_000_123_000_000)

    static func randomReport(_ random: inout SplitMix64, gateway: String) -> [UInt8] {
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var encoder = GatewayReportEncoder(gateway: gateway, format: .json)
        let time = time + .milliseconds(Int64(random.next() % 1_000_000_000))
        encoder.begin(time: time, cycleLength: .milliseconds(Int64(1 + random.next() % 5000)))
        for _ in 0..<Int(random.next() % 40) {
            let beacon: BeaconID =
                switch random.next() % 3 {
                case 0:
                    .iBeacon(
                        uuidHigh: random.next(), uuidLow: random.next(), major: UInt16(truncatingIfNeeded: random.next()),
                        minor: UInt16(truncatingIfNeeded: random.next()))
                case 1:
                    .altBeacon(
                        id1High: random.next(), id1Low: random.next(), id2: UInt16(truncatingIfNeeded: random.next()),
                        id3: UInt16(truncatingIfNeeded: random.next()))
                default:
                    .eddystoneUID(
                        namespaceHigh: UInt16(truncatingIfNeeded: random.next()), namespaceLow: random.next(),
                        instance: random.next() & 0xFFFF_FFFF_FFFF)
                }
            let rssi = random.next() % 5 == 0 ? nil : -127 + unit() * 147
            let mean = random.next() % 5 == 0 ? nil : -127 + unit() * 147
            let distance = random.next() % 5 == 0 ? nil : unit() * 655
            let accuracy = random.next() % 5 == 0 ? nil : unit() * 100
            encoder.append(
                GatewayRecord(
                    beacon: beacon, rssi: rssi, meanRSSI: mean, distance: distance, accuracy: accuracy,
                    sampleCount: Int(random.next() % 70_000), seen: random.next() % 2 == 0,
                    lastSeen: time - .microseconds(Int64(random.next() % 70_000_000)),
                    measuredPower: random.next() % 4 == 0 ? nil : Int8(truncatingIfNeeded: random.next())))
        }
        encoder.finish()
        return encoder.bytes
    }

    @Test("the encoder's reports: the same records as JSONDecoder's, or the same refusal")
    func encoderOutput() {
        var random = SplitMix64(seed: 30)
        var taken = 0
        for n in 0..<600 {
            let report = Self.randomReport(&random, gateway: "gw-\(n % 7)")
            let (a, b) = (Self.reader(report), Self.reference(report))
            #expect(Self.agree(a, b), "\(String(decoding: report, as: UTF8.self))")
            if case .success = a { taken += 1 }
        }
        #expect(taken > 50) // samples over 65,535 refuse some: both kinds are covered
    }

    static let record =
        #"{"beacon":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2},"rssi":-67.25,"#
        + #""mean":-64.5,"distance":2.31,"accuracy":0.8,"samples":9,"seen":true,"ageMs":120,"measuredPower":-59}"#

    static func report(_ record: String = record) -> String {
        #"{"v":1,"gateway":"gw-1","time":"2025-01-01T09:00:00.250Z","cycleMs":1000,"records":["# + record + "]}"
    }

    static func record(replacing old: String, with new: String) -> String {
        precondition(record.contains(old))
        return report(record.replacing(old, with: new))
    }

    static func eddystone(_ members: String, type: String = "eddystone-uid") -> String {
        report(#"{"beacon":{"type":""# + type + #"","# + members + #"},"samples":0,"seen":false,"ageMs":1}"#)
    }

    /// Hand-written variants of one report: each is taken or refused as JSONDecoder does.
    static let variants: [String] = [
        report(),
        // Member order, whitespace, escapes.
        report(
            #"{ "ageMs" : 120 , "seen" : true , "samples" : 9 , "measuredPower" : -59 , "accuracy" : 0.8 , "distance" : 2.31 ,"#
                + #" "mean" : -64.5 , "rssi" : -67.25 , "beacon" : { "minor" : 2 , "major" : 1 ,"#
                + #" "uuid" : "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0" } }"#),
        "{\n\t\"v\": 1,\r\n \"records\": [\(record)],\"cycleMs\":1000,\"time\":\"2025-01-01T09:00:00.250Z\",\"gateway\":\"gw-1\"}\n ",
        record(replacing: #""samples""#, with: #""\u0073amples""#),
        record(replacing: #"{"beacon""#, with: #"{"b\u0065acon""#),
        record(replacing: #""major":1"#, with: #""major":1,"type":"alt\u0062eacon""#),
        record(replacing: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", with: #"\u0045\u0032C56DB5-DFFB-48D2-B060-D0F5A71096E0"#),
        report().replacing(#""gw-1""#, with: #""gw\u002d1""#),
        report().replacing(#""gw-1""#, with: #""g\u00e9""#),
        report().replacing(#""gw-1""#, with: #""gw\/1""#),
        report().replacing("09:00:00.250Z", with: "09:00:00+02:00"),
        // Numbers in every JSON form.
        record(replacing: #""rssi":-67.25"#, with: #""rssi":-6.725e1"#),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":-6725E-2"#),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":-0.6725e+2"#),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":-0"#),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":1e-5"#),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":-67.250000000000000000000001"#),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":0.1234567890123456789012"#),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":1e400"#),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":1e-400"#),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":-200"#),
        record(replacing: #""samples":9"#, with: #""samples":9.0"#),
        record(replacing: #""samples":9"#, with: #""samples":0.9e1"#),
        record(replacing: #""samples":9"#, with: #""samples":900e-2"#),
        record(replacing: #""samples":9"#, with: #""samples":9.5"#),
        record(replacing: #""samples":9"#, with: #""samples":-1"#),
        record(replacing: #""samples":9"#, with: #""samples":99999999999999999999"#),
        record(replacing: #""ageMs":120"#, with: #""ageMs":1.2e2"#),
        record(replacing: #""ageMs":120"#, with: #""ageMs":70000"#),
        record(replacing: #""measuredPower":-59"#, with: #""measuredPower":127"#),
        record(replacing: #""measuredPower":-59"#, with: #""measuredPower":-128"#),
        record(replacing: #""measuredPower":-59"#, with: #""measuredPower":null"#),
        record(replacing: #","measuredPower":-59"#, with: ""),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":null"#),
        record(replacing: #""rssi":-67.25,"#, with: ""),
        // Wrong types, missing and repeated members, unknown members.
        record(replacing: #""samples":9"#, with: #""samples":"9""#),
        record(replacing: #""samples":9"#, with: #""samples":null"#),
        record(replacing: #""samples":9,"#, with: ""),
        record(replacing: #""seen":true"#, with: #""seen":1"#),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":"-67.25""#),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":null,"rssi":5"#),
        record(replacing: #""samples":9"#, with: #""samples":9,"samples":"ten""#),
        record(replacing: #""major":1"#, with: #""major":1,"major":2"#),
        record(replacing: #"{"beacon""#, with: #"{"extra":[1,{"a":null,"b":[true,false,-1.5e3]},"s\n\u00e9"],"beacon""#),
        record(replacing: #""major":1"#, with: #""major":1,"note":"x""#),
        report().replacing(#""records":["#, with: #""firmware":{"deep":[[[]]]},"records":["#),
        // Identities.
        record(replacing: #""major":1"#, with: #""major":70000"#),
        record(replacing: #""major":1"#, with: #""major":null"#),
        record(replacing: #""major":1,"#, with: ""),
        record(replacing: #""major":1"#, with: #""major":1,"namespace":"00112233445566778899""#),
        record(replacing: #""major":1"#, with: #""major":1,"type":"altbeacon""#),
        record(replacing: #""major":1"#, with: #""major":1,"type":"ibeacon""#),
        record(replacing: #""major":1"#, with: #""major":1,"type":null"#),
        record(replacing: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", with: "e2c56db5-dffb-48D2-B060-d0f5a71096e0"),
        record(replacing: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", with: "E2C56DB5DFFB48D2B060D0F5A71096E0"),
        record(replacing: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", with: "E2C56DB5-DFFB-48D2-B060-D0F5A71096EG"),
        record(replacing: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", with: "E2C56DB5-DFFB-48D2-B060D-0F5A71096E0"),
        record(replacing: #""E2C56DB5-DFFB-48D2-B060-D0F5A71096E0""#, with: "5"),
        report(
            #"{"beacon":{"type":"eddystone-uid","namespace":"00112233445566778899","instance":"aAbBccddeeff"},"#
                + #""rssi":null,"mean":null,"distance":null,"accuracy":null,"samples":0,"seen":false,"ageMs":65535}"#),
        eddystone(#""namespace":"00112233445566778899","instance":"aabbccddeef""#),
        eddystone(#""namespace":"0011223344556677889g","instance":"aabbccddeeff""#),
        eddystone(#""namespace":"00112233445566778899","instance":"aabbccddeeff","major":1"#),
        eddystone(#""instance":"aabbccddeeff""#),
        eddystone(#""namespace":"00112233445566778899","instance":"aabbccddeeff""#, type: "Eddystone-UID"),
        report(#"{"beacon":{"type":5},"samples":0,"seen":false,"ageMs":0}"#),
        report(#"{"beacon":{},"samples":0,"seen":false,"ageMs":0}"#),
        report(#"{"beacon":null,"samples":0,"seen":false,"ageMs":0}"#),
        report(#"{"beacon":[],"samples":0,"seen":false,"ageMs":0}"#),
        // Several records: the first impossible one is named.
        report(record + "," + record.replacing(#""ageMs":120"#, with: #""ageMs":-1"#)),
        report(record + "," + record.replacing(#""measuredPower":-59"#, with: #""measuredPower":200"#) + "," + record),
        // The header.
        report().replacing(#""v":1"#, with: #""v":2"#),
        report().replacing(#""v":1"#, with: #""v":1.0"#),
        report().replacing(#""v":1,"#, with: ""),
        report().replacing(#""gw-1""#, with: #""gw/1""#),
        report().replacing(#""gw-1""#, with: #""""#),
        report().replacing("2025-01-01T09:00:00.250Z", with: "yesterday"),
        report().replacing(#""cycleMs":1000"#, with: #""cycleMs":0"#),
        report().replacing(#""cycleMs":1000"#, with: #""cycleMs":1e3"#),
        #"{"records":[],"cycleMs":5,"time":"2025-01-01T09:00:00Z","gateway":"a","v":1}"#,
        #"{"records":[],"cycleMs":5,"time":"2025-01-01T09:00:00Z","gateway":"a","v":1,"v":2}"#,
        #"{"records":[{"beacon":{},"samples":0,"seen":false,"ageMs":0}],"cycleMs":0,"time":"2025-01-01T09:00:00Z","gateway":"a","v":2}"#,
        #"{"records":null,"cycleMs":5,"time":"2025-01-01T09:00:00Z","gateway":"a","v":1}"#,
        #"{"records":[1],"cycleMs":5,"time":"2025-01-01T09:00:00Z","gateway":"a","v":1}"#,
        // Not JSON.
        report() + "x", report() + "}", String(report().dropLast()), #"{"v":1}"#, "{}", "{", #"{"v""#,
        report().replacing(#""v":1"#, with: #""v":01"#), report().replacing(#""v":1"#, with: #""v":+1"#),
        report().replacing(#""v":1"#, with: #""v":1."#), record(replacing: #""rssi":-67.25"#, with: #""rssi":.5"#),
        record(replacing: #""rssi":-67.25"#, with: #""rssi":NaN"#), record(replacing: #""seen":true"#, with: #""seen":tru"#),
        report().replacing(#""gw-1""#, with: #""gw\x1""#), report().replacing(#""gw-1""#, with: #""gw\ud800""#),
        report().replacing(#""gw-1""#, with: "\"gw\u{1}\""), report().replacing(#""v":1,"#, with: #""v":1,,"#),
    ]

    @Test("hand-written reports: taken and refused as JSONDecoder does", arguments: variants)
    func handWritten(_ text: String) {
        let (a, b) = (Self.reader(text.utf8), Self.reference(text.utf8))
        #expect(Self.agree(a, b), "reader: \(a)\nJSONDecoder: \(b)")
    }

    /// What JSONDecoder let through although it is not JSON.
    static let notJSON: [String] = [
        #"{"records":[],"cycleMs":5,"time":"2025-01-01T09:00:00Z","gateway":"a","v":1,}"#,
        report(record + ","),
        record(replacing: #""major":1"#, with: #""major":1,"#),
        record(replacing: #""major":1"#, with: #""major":1,"x":9-5"#),
        record(replacing: #""major":1"#, with: #""major":1,"x":01"#),
        record(replacing: #""major":1"#, with: #""major":1,"x":"\ud800""#),
        record(replacing: #""major":1"#, with: #""major":1,"x":[1,]"#),
        record(replacing: #""major":1"#, with: "\"major\":1,\"x\":\"\u{1}\""),
    ]

    @Test("not JSON, although JSONDecoder let it through: refused", arguments: notJSON)
    func stricter(_ text: String) {
        guard case .failure(.invalidField(let message)) = Self.reader(text.utf8) else {
            Issue.record("taken: \(text)")
            return
        }
        #expect(message.hasPrefix("JSON: ") && message.contains(" at byte "))
    }

    @Test("invalid UTF-8 in a string is refused; nesting is bounded without exhausting the stack")
    func bytesAndDepth() {
        var bytes = Array(Self.report().utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "w"))! // in "gw-1"
        bytes[at] = 0xFF
        #expect(Self.agree(Self.reader(bytes), Self.reference(bytes)))
        if case .success = Self.reader(bytes) { Issue.record("invalid UTF-8 taken") }
        for depth in [510, 511, 512, 100_000] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let text = Self.report().replacing(#""v":1,"#, with: #""v":1,"x":"# + nested + ",")
            let outcome = Self.reader(text.utf8)
            if depth < 512 {
                #expect(Self.agree(outcome, Self.reference(text.utf8)), "depth \(depth)")
            } else {
                guard case .failure(.invalidField(let message)) = outcome else {
                    Issue.record("nesting of \(depth) taken")
                    continue
                }
                #expect(message.contains("nesting"))
            }
        }
    }

    @Test("mutated reports: never taken when JSONDecoder refused them, never with other records")
    func mutations() {
        var random = SplitMix64(seed: 3)
        let good = Array(Self.report(Self.record + "," + Self.record).utf8)
        let alphabet = Array(#"{}[]":,.-+eE019 \nulltruefalse"a\u"#.utf8) + [0xC3, 0xA9, 0x00, 0x1F, 0xFF]
        var taken = 0
        for _ in 0..<20_000 {
            var bytes = good
            for _ in 0..<Int(random.next() % 3 + 1) {
                let i = Int(random.next() % UInt64(bytes.count))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0: bytes[i] = byte
                case 1: bytes.remove(at: i)
                default: bytes.insert(byte, at: i)
                }
            }
            guard bytes.first == UInt8(ascii: "{") else { continue }
            let (a, b) = (Self.reader(bytes), Self.reference(bytes))
            switch (a, b) {
            case (.success(let x), .success(let y)):
                taken += 1
                #expect(x.0 == y.0 && x.1 == y.1, "\(String(decoding: bytes, as: UTF8.self))")
            case (.success, .failure):
                Issue.record("taken, JSONDecoder refused it: \(String(decoding: bytes, as: UTF8.self))")
            default: break // both refused; or not JSON that JSONDecoder let through (above)
            }
        }
        #expect(taken > 1000)
    }
}
