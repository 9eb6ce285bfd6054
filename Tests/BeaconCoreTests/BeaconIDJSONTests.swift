import Foundation
import Testing

@testable import BeaconCore

@Suite("BeaconID JSON object form")
struct BeaconIDJSONTests {
    static let uuid = UUID(uuidString: "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5")!

    static let forms: [(BeaconID, String)] = [
        (
            .iBeacon(uuid: uuid, major: 1, minor: 65535),
            #"{"uuid":"5A4BCFCE-174E-4BAC-A814-092E77F6B7E5","major":1,"minor":65535}"#
        ),
        (
            .altBeacon(id1: uuid, id2: 0, id3: 7),
            #"{"type":"altbeacon","uuid":"5A4BCFCE-174E-4BAC-A814-092E77F6B7E5","major":0,"minor":7}"#
        ),
        (
            .eddystoneUID(namespaceHigh: 0x0102, namespaceLow: 0x0304_0506_0708_090A, instance: 0xAABB_CCDD_EEFF),
            #"{"type":"eddystone-uid","namespace":"0102030405060708090a","instance":"aabbccddeeff"}"#
        ),
    ]

    /// `text` parsed the way scoring parses its lines.
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("writeJSON writes each kind's form, and the reader gives the same identity back", arguments: forms)
    func roundTrip(id: BeaconID, text: String) throws {
        var json = JSONWriter()
        id.writeJSON(to: &json)
        #expect(json.string == text)
        let read = try BeaconID(jsonObject: Self.object(json.string))
        #expect(read == id)
        #expect(read.kind == id.kind)
    }

    @Test("hex digits and UUIDs are read in either case")
    func caseInsensitive() throws {
        let object = try Self.object(#"{"type":"eddystone-uid","namespace":"0102030405060708090A","instance":"AABBCCDDEEFF"}"#)
        #expect(try BeaconID(jsonObject: object) == Self.forms[2].0)
        let lower = try Self.object(#"{"uuid":"5a4bcfce-174e-4bac-a814-092e77f6b7e5","major":1,"minor":65535}"#)
        #expect(try BeaconID(jsonObject: lower) == Self.forms[0].0)
    }

    static let malformed: [(String, BeaconIDJSONError)] = [
        (#"{"major":1,"minor":2}"#, .missingMember("uuid")),
        (#"{"uuid":"5A4BCFCE-174E-4BAC-A814-092E77F6B7E5","minor":2}"#, .missingMember("major")),
        (#"{"uuid":"nope","major":1,"minor":2}"#, .invalidMember("uuid", value: #""nope""#, expected: "a UUID")),
        (
            #"{"uuid":"5A4BCFCE-174E-4BAC-A814-092E77F6B7E5","major":70000,"minor":2}"#,
            .invalidMember("major", value: "70000", expected: "an integer from 0 to 65535")
        ),
        (
            #"{"uuid":"5A4BCFCE-174E-4BAC-A814-092E77F6B7E5","major":1,"minor":"2"}"#,
            .invalidMember("minor", value: #""2""#, expected: "an integer from 0 to 65535")
        ),
        (
            #"{"kind":"ibeacon","uuid":"5A4BCFCE-174E-4BAC-A814-092E77F6B7E5","major":1,"minor":2}"#,
            .unexpectedMember("kind", kind: .iBeacon)
        ),
        (#"{"type":"ibeacon","uuid":"5A4BCFCE-174E-4BAC-A814-092E77F6B7E5","major":1,"minor":2}"#, .unknownType("ibeacon")),
        (#"{"type":7}"#, .invalidMember("type", value: "7", expected: "a string")),
        (
            #"{"type":"eddystone-uid","namespace":"0102030405060708090a","instance":"aabbccddeeff","major":0}"#,
            .unexpectedMember("major", kind: .eddystoneUID)
        ),
        (#"{"type":"eddystone-uid","namespace":"0102030405060708090a"}"#, .missingMember("instance")),
        (
            #"{"type":"eddystone-uid","namespace":"0102","instance":"aabbccddeeff"}"#,
            .invalidMember("namespace", value: #""0102""#, expected: "20 hex digits")
        ),
        (
            #"{"type":"eddystone-uid","namespace":"0102030405060708090a","instance":"aabbccddeefg"}"#,
            .invalidMember("instance", value: #""aabbccddeefg""#, expected: "12 hex digits")
        ),
    ]

    @Test("a malformed object throws an error naming the member and what was expected", arguments: malformed)
    func malformedObject(text: String, expected: BeaconIDJSONError) throws {
        let object = try Self.object(text)
        #expect(throws: expected) { try BeaconID(jsonObject: object) }
    }

    @Test("error descriptions say what is wrong and what is expected")
    func descriptions() {
        #expect(
            BeaconIDJSONError.invalidMember("major", value: "70000", expected: "an integer from 0 to 65535").description
                == #"beacon identity: "major" is 70000; expected an integer from 0 to 65535"#)
        #expect(
            BeaconIDJSONError.unexpectedMember("kind", kind: .iBeacon).description
                == #"beacon identity: unexpected "kind" in an ibeacon identity; expected {"uuid","major","minor"} (iBeacon), "#
                + #"{"type":"altbeacon","uuid","major","minor"} or {"type":"eddystone-uid","namespace","instance"}"#)
        #expect(BeaconIDJSONError.missingMember("uuid").description.hasPrefix(#"beacon identity: missing "uuid"; expected "#))
        #expect(BeaconIDJSONError.unknownType("ibeacon").description.contains(#"an iBeacon has no "type""#))
    }
}
