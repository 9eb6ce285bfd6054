import BeaconCore
import BeaconSiteReport
import Foundation

/// The JSON form of a gateway report read through `JSONDecoder`, as every JSON report was read
/// before `GatewayReportJSONReader` (issue 30): the independent reference the reader is tested
/// against (`GatewayReportJSONReaderTests`). It lives with the tests, so that Sources has one
/// JSON report reader.
enum ReferenceJSONReportDecoder {
    private struct JSONReport: Decodable {
        var v: Int
        var gateway: String
        var time: String
        var cycleMs: Int
        var records: [JSONRecord]
    }

    /// The members of an identity object; turned into one by `BeaconID(jsonObject:)`, its one reader.
    private struct JSONBeacon: Decodable {
        var type: String?
        var uuid: String?
        var major: Int?
        var minor: Int?
        var namespace: String?
        var instance: String?

        func identity() throws(BeaconIDJSONError) -> BeaconID {
            var object: [String: Any] = [:]
            if let type { object["type"] = type }
            if let uuid { object["uuid"] = uuid }
            if let major { object["major"] = major }
            if let minor { object["minor"] = minor }
            if let namespace { object["namespace"] = namespace }
            if let instance { object["instance"] = instance }
            return try BeaconID(jsonObject: object)
        }
    }

    private struct JSONRecord: Decodable {
        var beacon: JSONBeacon
        var rssi: Double?
        var mean: Double?
        var distance: Double?
        var accuracy: Double?
        var samples: Int
        var seen: Bool
        var ageMs: Int
        var measuredPower: Int?
    }

    /// A JSON report decoded by `JSONDecoder`.
    /// - Parameter bytes: the report (JSON).
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(GatewayReportError) -> (
        header: GatewayReportHeader, records: [GatewayRecord]
    ) {
        let report: JSONReport
        do {
            report = try JSONDecoder().decode(JSONReport.self, from: Data(bytes))
        } catch {
            throw .invalidField("JSON: \(error)")
        }
        guard report.v == 1 else { throw .unsupportedVersion(report.v) }
        guard SiteGateway.isValidID(report.gateway) else { throw .invalidField("gateway id '\(report.gateway)'") }
        guard let time = Timestamp(rfc3339: report.time) else { throw .invalidField("time '\(report.time)'") }
        guard report.cycleMs > 0 else { throw .invalidField("a cycle length of \(report.cycleMs) ms") }
        guard report.records.count <= GatewayReportEncoder.maxRecords else {
            throw .invalidField("\(report.records.count) records")
        }
        var records: [GatewayRecord] = []
        records.reserveCapacity(report.records.count)
        for r in report.records {
            guard (0...65_535).contains(r.samples), (0...65_535).contains(r.ageMs) else {
                throw .invalidField("samples \(r.samples) or age \(r.ageMs) ms out of range")
            }
            guard r.measuredPower.map({ (-128...126).contains($0) }) ?? true else {
                throw .invalidField("measured power \(r.measuredPower!)")
            }
            let beacon: BeaconID
            do {
                beacon = try r.beacon.identity()
            } catch {
                throw .invalidField("beacon: \(error)")
            }
            records.append(
                GatewayRecord(
                    beacon: beacon, rssi: r.rssi, meanRSSI: r.mean, distance: r.distance, accuracy: r.accuracy,
                    sampleCount: r.samples,
                    seen: r.seen, lastSeen: time - .milliseconds(Int64(r.ageMs)), measuredPower: r.measuredPower.map { Int8($0) })
            )
        }
        return (
            GatewayReportHeader(
                gateway: report.gateway, time: time, cycleLength: .milliseconds(Int64(report.cycleMs)),
                recordCount: records.count), records
        )
    }
}
