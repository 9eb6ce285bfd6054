import FoundationEssentials
import Testing

@testable import BeaconCore

@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("Nested objects and arrays get commas in the right places")
    func structure() {
        var json = JSONWriter()
        json.object { json in
            json.member("a", 1)
            json.key("b")
            json.array { json in
                json.value(1)
                json.value("x")
                json.null()
            }
            json.key("c")
            json.object { json in json.member("d", true) }
            json.member("skipped", nil as String?)
            json.member("e", 2.5)
        }
        #expect(json.string == #"{"a":1,"b":[1,"x",null],"c":{"d":true},"e":2.5}"#)
    }

    @Test("Strings are escaped per RFC 8259")
    func escaping() {
        var json = JSONWriter()
        json.value("quote\" back\\ nl\n tab\t bell\u{07} é")
        #expect(json.string == #""quote\" back\\ nl\n tab\t bell\u0007 é""#)
    }

    @Test(
        "A double with fixed decimals is rounded and zero-padded",
        arguments: [
            (1, 3, "1.000"), (2.2360679, 3, "2.236"), (-0.25, 3, "-0.250"), (-0.0001, 3, "0.000"),
            (0.0005, 3, "0.001"), (12.5, 0, "13"), (1e300, 3, "1e+300"), (.nan, 3, "null"),
        ] as [(Double, Int, String)])
    func fixedDecimals(number: Double, decimals: Int, expected: String) {
        var json = JSONWriter()
        json.array { json in
            json.value(number, decimals: decimals)
            json.value(1)
        }
        #expect(json.string == "[\(expected),1]")
    }

    @Test("An alert event carries the fields replay and sinks promise")
    func alertEvent() throws {
        let uuid = try #require(UUID(uuidString: "74278BDA-B644-4520-8F0C-720EAF059935"))
        let event = AlertEvent(
            kind: .delivered, alertID: "lobby-dwell", beacon: .iBeacon(uuid: uuid, major: 1, minor: 2),
            strategy: "time", time: Timestamp(nanosecondsSinceEpoch: 1_735_689_660_500_000_000),
            content: AlertContent(title: "Welcome", message: "Hello"))
        let line = event.jsonLine
        #expect(
            line.hasPrefix(
                #"{"event":"delivered","alert":"lobby-dwell","beacon":{"uuid":"74278BDA-B644-4520-8F0C-720EAF059935","major":1,"minor":2},"strategy":"time","priority":"active","time":"2025-01-01T00:01:00.500Z","content":{"title":"Welcome","message":"Hello"}"#
            ))
    }
}
