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
                #"{"event":"delivered","alert":"lobby-dwell","beacon":{"uuid":"74278BDA-B644-4520-8F0C-720EAF059935","major":1,"minor":2},"strategy":"time","time":"2025-01-01T00:01:00.500Z","content":{"title":"Welcome","message":"Hello"}"#
            ))
    }
}
