/// How a gateway's per-cycle records are put on the wire.
///
/// Both carry the same fields; a hub reads either (it tells them apart by the first byte), so a
/// site can switch one gateway at a time. `binary` is the default: 34 bytes per iBeacon
/// record against about 190 for `json` (`make bench BENCH=site` measures both); `json` is for
/// reading the traffic with `mosquitto_sub` or feeding other tools.
public enum GatewayReportFormat: String, Hashable, Sendable, CaseIterable {
    /// The compact binary layout of ``GatewayReportEncoder`` (version 1).
    case binary
    /// One JSON object per report.
    case json
}
