import BeaconCore
import BeaconForeignNodes
import Testing

/// Random and mutated bytes through every kind's reader and a node: nothing traps, every message is
/// read or refused (a libFuzzer run explores further; this runs in every `make test`).
@Suite("Foreign payloads fuzzed")
struct ForeignTranslatorFuzzTests {
    static let seeds: [String] = [
        #"{"mac":"df51fd4a4caf","id":"iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-65535","rssi@1m":-59,"rssi":-72.35,"rxAdj":0,"distance":3.42,"var":0.21}"#,
        #"{"id":"eddy:edd1ebeac0c04e5defa017-0bdb87539b67","rssi":-70}"#,
        #"{"id":"AA:BB:CC:DD:EE:FF","rssi":-70,"manufacturerdata":"4c000215426c7565436861726d426561636f6e730efe1355c5"}"#,
        #"{"id":"58:78:20:76:BC:24","rssi":-79,"model_id":"IBEACON","uuid":"1de4b189115e45f6b44e509352269977","major":0,"minor":0,"txpower":-66}"#,
        #"{"rssi":-64,"servicedatauuid":"0xfeaa","servicedata":"00e7edd1ebeac04e5defa0170bdb87539b670000"}"#,
        "online",
    ]

    @Test("20,000 mutated and random payloads per kind: read or refused, never a trap")
    func mutations() throws {
        var random = SplitMix64(seed: 28)
        var taken = 0
        var refused = 0
        for kind in ForeignNodeKind.allCases {
            var node = try ForeignGatewayNode(gateway: "n", endpoint: ForeignNodeEndpoint(kind: kind, name: "n"))
            let topic = kind == .espresense ? "espresense/devices/x/n" : "home/n/BTtoMQTT/x"
            for round in 0..<20_000 {
                var bytes: [UInt8]
                if round % 5 == 0 {
                    bytes = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                } else {
                    bytes = Array(Self.seeds[Int(random.next() % UInt64(Self.seeds.count))].utf8)
                    for _ in 0..<(1 + Int(random.next() % 4)) where !bytes.isEmpty {
                        let at = Int(random.next() % UInt64(bytes.count))
                        switch random.next() % 4 {
                        case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                        case 1: bytes.remove(at: at)
                        case 2:
                            let tokens = Array("{}[]\":,-0123456789e.".utf8)
                            bytes.insert(tokens[Int(random.next() % UInt64(tokens.count))], at: at)
                        default: bytes.removeSubrange(at...)
                        }
                    }
                }
                for topicKind in [ForeignTopic.device("x"), .status] {
                    switch kind.read(bytes, topicKind) {
                    case .success: taken += 1
                    case .failure(let refusal): refused += refusal.detail.isEmpty ? 0 : 1
                    }
                }
                _ = node.ingest(bytes, topic: topic, receivedAt: Timestamp(seconds: 1_700_000_000) + .milliseconds(round * 10))
            }
        }
        #expect(taken + refused == 3 * 20_000 * 2)
        #expect(taken > 0 && refused > 0)
    }
}
