import BeaconCore
import BeaconForeignNodes
import BeaconSiteReport
import Testing

/// What each kind refuses, and why: a payload that is not what the kind sends is never a sighting.
@Suite("Foreign payloads refused")
struct ForeignPayloadRefusalTests {
    static let id = "iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-65535"

    @Test(
        "ESPresense: each bad message refused with its reason",
        arguments: [
            ("hello", ForeignPayloadRefusal.Reason.malformed),
            ("[1,2]", .malformed),
            (#"{"id":"\#(id)","rssi":"-70"}"#, .malformed),
            (#"{"rssi":-70}"#, .malformed),
            (#"{"id":"\#(id)","rssi":-70,"distance":"far"}"#, .malformed),
            (#"{"id":"\#(id)","rssi":-70"#, .malformed),
            (#"{"id":"\#(id)","rssi":500}"#, .outOfRange),
            (#"{"id":"\#(id)","rssi":-128.6}"#, .outOfRange),
            (#"{"id":"\#(id)","rssi":-70,"distance":-3}"#, .outOfRange),
            (#"{"id":"\#(id)","rssi":-70,"var":1e300}"#, .outOfRange),
            (#"{"id":"\#(id)","rssi":-70,"rxAdj":400}"#, .outOfRange),
            (#"{"id":"\#(id)","rssi":-70,"mac":"nothex"}"#, .malformed),
            (#"{"id":"iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-65535x","rssi":-70}"#, .wrongTopic),
            (#"{"id":"\#(id)","rssi":-70,"pad":"\#(String(repeating: "x", count: 5000))"}"#, .malformed),
        ])
    func espresense(payload: String, reason: ForeignPayloadRefusal.Reason) {
        let result = ForeignNodeKind.espresense.read(Array(payload.utf8), .device(Self.id))
        guard case .failure(let refusal) = result else {
            Issue.record("taken: \(result)")
            return
        }
        #expect(refusal.reason == reason, "\(refusal)")
    }

    @Test(
        "ESPresense: an id of a beacon form that does not parse is refused",
        arguments: [
            "iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825--1-2", "iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-65536-0",
            "iBeacon:xyz-1-2", "altBeacon:fda50693a4e24fb1afcfc6eb07647825-1-2", "eddy:edd1ebeac0ff4e5defa017-0bdb87539b67",
            "eddy:edd1-0bdb87539b67",
        ])
    func badBeaconIDs(id: String) {
        let result = ForeignNodeKind.espresense.read(Array(#"{"id":"\#(id)","rssi":-70}"#.utf8), .device(id))
        guard case .failure(let refusal) = result else {
            Issue.record("taken: \(result)")
            return
        }
        #expect(refusal.reason == .malformed)
        #expect(refusal.detail.contains(id), "\(refusal)")
    }

    @Test(
        "OpenMQTTGateway: each bad message refused with its reason",
        arguments: [
            ("not json", ForeignPayloadRefusal.Reason.malformed),
            (#"{"id":"AA:BB:CC:DD:EE:FF","rssi":-70,"manufacturerdata":"zz"}"#, .malformed),
            (#"{"id":"AA:BB:CC:DD:EE:FF","rssi":-70,"manufacturerdata":"4c0"}"#, .malformed),
            (#"{"id":"AA:BB:CC:DD:EE:FF","rssi":-70,"manufacturerdata":42}"#, .malformed),
            (#"{"id":"AA:BB:CC:DD:EE:FF","rssi":99,"manufacturerdata":"4c00"}"#, .outOfRange),
            (
                #"{"rssi":-70,"model_id":"IBEACON","uuid":"1de4b189115e45f6b44e509352269977","major":70000,"minor":0}"#,
                .outOfRange
            ),
            (#"{"rssi":-70,"model_id":"IBEACON","uuid":"1de4b189115e45f6b44e509352269977","major":1.5,"minor":0}"#, .outOfRange),
            (#"{"rssi":-70,"model_id":"IBEACON","uuid":"1de4b189","major":1,"minor":0}"#, .malformed),
            (#"{"rssi":-70,"model_id":"IBEACON","uuid":"1de4b189115e45f6b44e509352269977"}"#, .malformed),
            (#"{"rssi":-70,"servicedatauuid":"0xfeaa","servicedata":"0g"}"#, .malformed),
        ])
    func openMQTTGateway(payload: String, reason: ForeignPayloadRefusal.Reason) {
        let result = ForeignNodeKind.openMQTTGateway.read(Array(payload.utf8), .device("AABBCCDDEEFF"))
        guard case .failure(let refusal) = result else {
            Issue.record("taken: \(result)")
            return
        }
        #expect(refusal.reason == reason, "\(refusal)")
    }

    @Test("a refusal is counted by the hub under its reason, with the node's id")
    func asReportRefusal() {
        let refusal = ForeignPayloadRefusal(.outOfRange, "'rssi' 500.0 dBm is outside −127…+20")
        let counted = refusal.reportRefusal(gateway: "office", kind: .espresense)
        #expect(counted.reason == .outOfRange)
        #expect(counted.gateway == "office")
        #expect(
            counted.description
                == "report from gateway 'office' refused (out_of_range): espresense message: 'rssi' 500.0 dBm is outside −127…+20"
        )
    }

    @Test("a status that is neither online nor offline is refused")
    func badStatus() {
        guard case .failure(let refusal) = ForeignNodeKind.espresense.read(Array("maybe".utf8), .status) else {
            Issue.record("taken")
            return
        }
        #expect(refusal.reason == .malformed)
    }
}
