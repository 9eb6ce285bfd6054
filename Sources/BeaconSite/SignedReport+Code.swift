import BeaconCrypto
import BeaconSiteReport

extension SignedReport {
    /// Seals `report` (a whole encoded report) with `sequence` and `key`.
    public static func seal(_ report: some Collection<UInt8>, sequence: UInt64, key: GatewayKey) -> [UInt8] {
        var sealed: [UInt8] = [magic.0, magic.1, version, 0]
        sealed.reserveCapacity(overhead + report.count)
        withUnsafeBytes(of: sequence.littleEndian) { sealed.append(contentsOf: $0) }
        var code = HMACSHA256(key: key.bytes)
        code.update(sealed)
        code.update(report)
        sealed.append(contentsOf: code.finalize())
        sealed.append(contentsOf: report)
        return sealed
    }
}

extension SignedReport.Parts {
    /// Whether the code is right for `key` (compared in constant time).
    public func verifies(with key: GatewayKey) -> Bool {
        var expected = HMACSHA256(key: key.bytes)
        expected.update(head)
        expected.update(report)
        return HMACSHA256.constantTimeEqual(expected.finalize(), code)
    }
}
