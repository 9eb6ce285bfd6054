import BeaconCore
import BeaconCrypto
import BeaconDevices
import BeaconForeignNodes
import BeaconSiteReport
import Testing

/// Phones through foreign nodes: an OpenMQTTGateway's raw message from a resolvable private
/// address, resolved by the hub's node against its enrolled devices (with the second-address
/// rule), and an ESPresense `irk:` id, matched to the enrolled key whatever its byte order.
@Suite("Enrolled devices through foreign nodes")
struct ForeignNodeDevicesTests {
    static let sampleHex = "ec0234a357c8ad05341010a60a397d9b"
    static let text = try! IdentityResolvingKeyText(parsing: sampleHex)
    static let ada = BeaconID.device(named: "ada-phone")!
    static let device = EnrolledDevice(id: ada, candidates: text.candidates, measuredPower: -61)
    static let t0 = Timestamp(seconds: 1_700_000_000)

    static func decodedRecords(_ reports: [GatewayReportMessage]) -> [GatewayRecord] {
        reports.flatMap { report -> [GatewayRecord] in
            guard case .decoded(_, let records) = report else { return [] }
            return records
        }
    }

    /// What OpenMQTTGateway publishes for a phone: its address, RSSI and Apple's manufacturer data.
    static func omgMessage(_ address: BluetoothAddress) -> [UInt8] {
        Array(#"{"id":"\#(address.description.uppercased())","rssi":-58,"manufacturerdata":"4c0010020b00"}"#.utf8)
    }

    @Test("a phone behind OpenMQTTGateway is ranged as its device from its second address; a stranger's never")
    func openMQTTGateway() throws {
        let endpoint = ForeignNodeEndpoint(kind: .openMQTTGateway, name: "OpenMQTTGateway", prefix: "home")
        var node = try ForeignGatewayNode(gateway: "omg", endpoint: endpoint, devices: [Self.device])
        let key = Self.text.candidates[0].key
        let first = key.resolvablePrivateAddress(random: 10)
        let second = key.resolvablePrivateAddress(random: 11)
        let stranger = BluetoothAddress("52:11:22:33:44:55")! // top bits 01, another key's
        var reports: [GatewayReportMessage] = []
        for second_ in 0..<20 {
            let phone = second_ < 10 ? first : second
            for address in [phone, stranger] {
                let step = node.ingest(
                    Self.omgMessage(address), topic: "home/OpenMQTTGateway/BTtoMQTT/\(address.description)",
                    receivedAt: Self.t0 + .seconds(Int64(second_)) + .milliseconds(300))
                #expect(step.refusal(gateway: "omg", kind: .openMQTTGateway) == nil)
                reports += step.reports
            }
        }
        reports += node.advance(to: Self.t0 + .seconds(21))
        let records = Self.decodedRecords(reports)
        #expect(!records.isEmpty)
        #expect(records.allSatisfy { $0.beacon == Self.ada }, "\(records.map(\.beacon))")
        #expect(records.first?.measuredPower == -61)
        // Held back on the first address (10 s), ranged from the second on.
        #expect(records.filter(\.seen).count >= 9 && records.filter(\.seen).count <= 11)
    }

    @Test(
        "an ESPresense irk: id names the enrolled device in either byte order; an unknown key is ignored",
        arguments: [
            ("ec0234a357c8ad05341010a60a397d9b", true), ("9b7d390aa610103405adc857a33402ec", true),
            (String(repeating: "ab", count: 16), false),
        ])
    func espresenseKey(hex: String, enrolled: Bool) throws {
        let endpoint = ForeignNodeEndpoint(kind: .espresense, name: "office")
        var node = try ForeignGatewayNode(gateway: "office-node", endpoint: endpoint, devices: [Self.device])
        let id = "irk:\(hex)"
        var reports: [GatewayReportMessage] = []
        for second in 0..<3 {
            let payload = Array(#"{"id":"\#(id)","rssi@1m":-59,"rssi":-66,"distance":2.0}"#.utf8)
            let step = node.ingest(
                payload, topic: "espresense/devices/\(id)/office", receivedAt: Self.t0 + .seconds(Int64(second)))
            #expect(step.refusal(gateway: "office-node", kind: .espresense) == nil)
            if case .success(let payload)? = step.outcome {
                // The payload's description never shows the key.
                #expect(!"\(payload)".contains(hex.prefix(8)), "\(payload)")
            }
            reports += step.reports
        }
        reports += node.advance(to: Self.t0 + .seconds(4))
        let records = Self.decodedRecords(reports)
        if enrolled {
            #expect(!records.isEmpty && records.allSatisfy { $0.beacon == Self.ada && $0.measuredPower == -61 })
        } else {
            #expect(records.isEmpty)
        }
    }

    @Test("an irk: id under another device's topic is refused without repeating the key")
    func irkUnderAnotherTopic() throws {
        let endpoint = ForeignNodeEndpoint(kind: .espresense, name: "office")
        let result = ForeignNodeKind.espresense.read(
            Array(#"{"id":"irk:ec0234a357c8ad05341010a60a397d9b","rssi":-66}"#.utf8),
            endpoint.classify("espresense/devices/irk:9b7d390aa610103405adc857a33402ec/office")!)
        guard case .failure(let refusal) = result else {
            Issue.record("not refused: \(result)")
            return
        }
        #expect("\(refusal)".contains("irk:…"), "\(refusal)")
        #expect(!"\(refusal)".contains("ec0234a3") && !"\(refusal)".contains("9b7d390a"), "\(refusal)")
    }

    @Test("an irk: id that is not 32 hex digits is refused without repeating it")
    func malformedKey() throws {
        let endpoint = ForeignNodeEndpoint(kind: .espresense, name: "office")
        let id = "irk:ec0234a357c8ad05341010a60a397d"
        let result = ForeignNodeKind.espresense.read(
            Array(#"{"id":"\#(id)","rssi":-66}"#.utf8), endpoint.classify("espresense/devices/\(id)/office")!)
        guard case .failure(let refusal) = result else {
            Issue.record("not refused: \(result)")
            return
        }
        #expect(!"\(refusal)".contains("ec0234a3"), "\(refusal)")
    }
}
