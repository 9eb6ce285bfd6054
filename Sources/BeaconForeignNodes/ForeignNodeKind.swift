/// The firmware a foreign gateway runs: what its MQTT topics and payloads look like.
///
/// `beacond` gateways publish ranged records (see `GatewayReportMessage`); the kinds here
/// publish one JSON message per sighting, which ``ForeignGatewayNode`` ranges on the hub.
public enum ForeignNodeKind: String, Hashable, Sendable, CaseIterable {
    /// An ESPresense node: `espresense/devices/<id>/<room>` with the firmware's
    /// `BleFingerprint::fill` JSON (`mac`, `id`, `rssi`, `rssi@1m`, …), and
    /// `espresense/rooms/<room>/status` (`online` / `offline`).
    case espresense
    /// An OpenMQTTGateway: `home/<gateway>/BTtoMQTT/<MAC>` with `id`, `rssi` and either the raw
    /// `manufacturerdata` / `servicedata` hex or Theengs Decoder's decoded forms.
    case openMQTTGateway = "openmqttgateway"
    /// A Theengs Gateway: the same topics and payloads as OpenMQTTGateway.
    case theengs

    /// The first topic level the firmware publishes under by default.
    public var defaultTopicPrefix: String {
        switch self {
        case .espresense: "espresense"
        case .openMQTTGateway, .theengs: "home"
        }
    }

    /// Reads one message of this kind, received under `topic`: what it says, or why it is refused.
    /// Never traps, whatever the bytes.
    public func read(_ payload: [UInt8], _ topic: ForeignTopic) -> Result<ForeignPayload, ForeignPayloadRefusal> {
        payload.withUnsafeBytes { bytes in
            do throws(ForeignPayloadRefusal) {
                switch self {
                case .espresense: return .success(try ESPresenseTranslator.translate(bytes, topic))
                case .openMQTTGateway, .theengs: return .success(try OpenMQTTGatewayTranslator.translate(bytes, topic))
                }
            } catch {
                return .failure(error)
            }
        }
    }
}
