import BeaconCore

extension RangingEvaluation {
    /// The philotuxo stationary files: one beacon 30 minutes at a fixed point, three receivers.
    static let philotuxoFiles = [
        "philotuxo_stationary_p12.95_16.80_sensor31.csv",
        "philotuxo_stationary_p12.95_16.80_sensor30.csv",
        "philotuxo_stationary_p12.95_16.80_sensor11.csv",
    ]
    static let philotuxoTruthFile = "philotuxo_stationary_p12.95_16.80_ground_truth.csv"
    static let heraldFile = "herald_edison_20210109-2342-A.csv"
    static let starksmFile = "starksm64_FourScannersBeacon5Run1-2015-03-13.csv"

    func table(_ file: String) throws(RangingEvaluationError) -> CSVTable {
        CSVTable(text: try TextFile.read(dataDirectory + "/" + file))
    }

    static func number(_ text: Substring, _ file: String, _ row: Int, _ column: String) throws(RangingEvaluationError) -> Double {
        guard let value = Double(text) else { throw .badValue(file: file, row: row, column: column, text: String(text)) }
        return value
    }

    /// The three stationary series, nearest receiver first, with the ground-truth distances.
    func loadPhilotuxo() throws(RangingEvaluationError) -> [RSSISeries] {
        let truthTable = try table(Self.philotuxoTruthFile)
        let fileColumn = try truthTable.column("file", in: Self.philotuxoTruthFile)
        let distanceColumn = try truthTable.column("distance_m", in: Self.philotuxoTruthFile)
        var series: [RSSISeries] = []
        for file in Self.philotuxoFiles {
            guard let row = truthTable.rows.firstIndex(where: { $0[fileColumn] == file }) else {
                throw .badValue(file: Self.philotuxoTruthFile, row: 0, column: "file", text: file)
            }
            let truth = try Self.number(truthTable.rows[row][distanceColumn], Self.philotuxoTruthFile, row + 2, "distance_m")
            let data = try table(file)
            let t = try data.column("timestamp", in: file), r = try data.column("rssi", in: file)
            var s = RSSISeries(name: "philotuxo \(Statistics.fixed(truth, 2)) m", times: [], rssi: [], truth: [])
            for (i, fields) in data.rows.enumerated() {
                s.times.append(Timestamp(secondsSinceEpoch: try Self.number(fields[t], file, i + 2, "timestamp")))
                s.rssi.append(try Self.number(fields[r], file, i + 2, "rssi"))
                s.truth.append(truth)
            }
            series.append(s)
        }
        return series
    }

    /// Herald: phone B moved away from phone A in 10 cm steps; distance 0 is left out (no
    /// path-loss model gives 0 m).
    func loadHerald() throws(RangingEvaluationError) -> RSSISeries {
        let file = Self.heraldFile
        let data = try table(file)
        let t = try data.column("time", in: file), r = try data.column("rssi", in: file)
        let d = try data.column("distance", in: file)
        var s = RSSISeries(name: "herald 0.1–3 m", times: [], rssi: [], truth: [])
        for (i, fields) in data.rows.enumerated() {
            let distance = try Self.number(fields[d], file, i + 2, "distance") / 100
            guard distance > 0 else { continue }
            guard let time = Timestamp(rfc3339: String(fields[t]) + "Z") else {
                throw .badValue(file: file, row: i + 2, column: "time", text: String(fields[t]))
            }
            s.times.append(time)
            s.rssi.append(try Self.number(fields[r], file, i + 2, "rssi"))
            s.truth.append(distance)
        }
        return s
    }

    /// starksm64: one iBeacon walked between four scanners; sightings per scanner, time-sorted.
    func loadStarksm() throws(RangingEvaluationError) -> [String: [BeaconSighting]] {
        let file = Self.starksmFile
        let data = try table(file)
        let t = try data.column("time", in: file), scanner = try data.column("scannerID", in: file)
        let r = try data.column("rssi", in: file), power = try data.column("calibratedPower", in: file)
        let minor = try data.column("minor", in: file)
        var byScanner: [String: [BeaconSighting]] = [:]
        for (i, fields) in data.rows.enumerated() {
            let ms = try Self.number(fields[t], file, i + 2, "time")
            let id = BeaconID.iBeacon(
                uuidHigh: 0xDAF2_46CE_8363_11E4, uuidLow: 0xB116_123B_93F7_5CBA, major: 0,
                minor: UInt16(try Self.number(fields[minor], file, i + 2, "minor")))
            let sighting = BeaconSighting(
                timestamp: Timestamp(nanosecondsSinceEpoch: Int64(ms) * 1_000_000), id: id,
                address: BluetoothAddress(rawValue: 0), rssi: Int8(try Self.number(fields[r], file, i + 2, "rssi")),
                measuredPower: Int8(try Self.number(fields[power], file, i + 2, "calibratedPower")))
            byScanner[String(fields[scanner]), default: []].append(sighting)
        }
        for key in byScanner.keys { byScanner[key]!.sort { $0.timestamp < $1.timestamp } }
        return byScanner
    }
}
