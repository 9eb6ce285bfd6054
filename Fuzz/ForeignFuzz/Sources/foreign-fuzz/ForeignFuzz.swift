// libFuzzer harness for BeaconForeignNodes: the input as a payload of every kind under a device
// topic and a status topic (read or refused, never a trap), through a ranging node of each kind
// (time taken from the input's first bytes, so that cycles close), and as a recording's text.
// Built and run by scripts/fuzz-foreign.sh.
import BeaconCore
import BeaconForeignNodes

nonisolated(unsafe) private var nodes: [ForeignGatewayNode] = ForeignNodeKind.allCases.map { kind in
    try! ForeignGatewayNode(gateway: "fuzz", endpoint: ForeignNodeEndpoint(kind: kind, name: "fuzz"))
}
nonisolated(unsafe) private var clock = Timestamp(seconds: 1_700_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func foreignFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var sink = 0
    for kind in ForeignNodeKind.allCases {
        for topic in [ForeignTopic.device("x"), .status] {
            switch kind.read(bytes, topic) {
            case .success(let payload): sink &+= "\(payload)".utf8.count
            case .failure(let refusal):
                precondition(!refusal.detail.isEmpty, "a refusal without a reason")
                sink &+= refusal.detail.utf8.count
            }
        }
    }
    // Time moves on by up to 2.55 s per input, as the first byte says.
    clock = clock + .milliseconds(Int64(bytes.first ?? 0) * 10)
    let topics = ["espresense/devices/x/fuzz", "home/fuzz/BTtoMQTT/x", "home/fuzz/BTtoMQTT/x"]
    for index in nodes.indices {
        let step = nodes[index].ingest(bytes, topic: topics[index], receivedAt: clock)
        sink &+= step.reports.count
    }
    let recording = ForeignRecording(text: String(decoding: bytes, as: UTF8.self), file: "fuzz")
    sink &+= recording.messages.count &+ recording.errors.count
    return sink == Int.min ? 1 : 0
}
