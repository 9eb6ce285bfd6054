import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconRanging
import Foundation
import Testing

/// The `ranging:` keys a gateway user calibrates with: filter parameters and per-beacon
/// calibration (RSSI at 1 m, path-loss exponent).
@Suite("ranging: filter parameters and calibrations")
struct RangingConfigurationNodeTests {
    static func ranging(_ yaml: String) throws -> RangingConfiguration {
        try GatewayConfiguration(node: ConfigNode(yaml: "ranging:\n" + yaml, file: "gw.yaml")).ranging
    }

    @Test(
        "a filter by name keeps its defaults; a mapping sets the parameters it names",
        arguments: [
            ("  filter: kalman\n", RSSIFilterKind.kalman(.init())),
            ("  filter: {kind: kalman, processNoise: 0.02}\n", .kalman(.init(processNoise: 0.02, measurementNoise: 4))),
            ("  filter: {kind: arma, speed: 0.25}\n", .arma(.init(speed: 0.25))),
            ("  filter: {kind: one-euro, beta: 0.5}\n", .oneEuro(.init(minCutoff: 1, beta: 0.5, derivativeCutoff: 1))),
            (
                "  filter: {kind: percentile, percentile: 0.5, window: 5s}\n",
                .percentile(.init(percentile: 0.5, window: .seconds(5)))
            ),
            (
                "  filter: {kind: running-average, window: 10s, maxSamples: 50}\n",
                .runningAverage(.init(window: .seconds(10), maxSamples: 50))
            ),
        ])
    func filters(_ yaml: String, _ expected: RSSIFilterKind) throws {
        #expect(try Self.ranging(yaml).filter == expected)
    }

    @Test("calibrations are read per beacon")
    func calibrations() throws {
        let ranging = try Self.ranging(
            """
              calibrations:
                - {beacon: "ibeacon:74278BDA-B644-4520-8F0C-720EAF059935:1:2", measuredPower: -63, pathLossExponent: 2.1}
                - {beacon: "eddystone-uid:0102030405060708090a:0000000000aa", measuredPower: -70}

            """)
        let ibeacon = try #require(BeaconID("ibeacon:74278BDA-B644-4520-8F0C-720EAF059935:1:2"))
        let eddystone = try #require(BeaconID("eddystone-uid:0102030405060708090a:0000000000aa"))
        #expect(ranging.calibrations[ibeacon] == BeaconCalibration(measuredPower: -63, pathLossExponent: 2.1))
        #expect(ranging.calibrations[eddystone] == BeaconCalibration(measuredPower: -70))
    }

    @Test("a calibrated RSSI at 1 m moves the distance: -60 dBm heard is 1.1 m at -59, 3.2 m at -50 (exponent 2)")
    func calibrationChangesDistance() throws {
        let id = "ibeacon:74278BDA-B644-4520-8F0C-720EAF059935:1:1"
        func distance(_ calibration: String) throws -> Double? {
            let ranging = try Self.ranging("  filter: {kind: arma, speed: 1}\n  pathLossExponent: 2\n" + calibration)
            var loop = try RangingLoop(configuration: ranging)
            var last: Double?
            for sighting in Timeline(present: [(0, 3)]).sightings {
                loop.ingest(sighting) { update in last = update.beacons.first?.distance }
            }
            loop.advance(to: Timeline.start + .seconds(4)) { update in last = update.beacons.first?.distance }
            return last
        }
        // Log-distance: d = 10^((P − RSSI) / (10 n)); the frames say P = -59 (0xC5).
        let framed = try #require(try distance(""))
        let calibrated = try #require(try distance("  calibrations: [{beacon: \"\(id)\", measuredPower: -50}]\n"))
        #expect(abs(framed - pow(10, 1.0 / 20)) < 0.01)
        #expect(abs(calibrated - pow(10, 10.0 / 20)) < 0.01)
    }

    @Test(
        "mistakes are located and say what is right",
        arguments: [
            ("  filter: {kind: kalman, speed: 0.1}\n", "gw.yaml:2", "unknown key 'speed'"),
            ("  filter: {kind: smooth}\n", "gw.yaml:2", "unknown filter 'smooth'"),
            ("  filter: {kind: arma, speed: 2}\n", "gw.yaml:2", "speed must be in (0, 1]"),
            ("  calibrations: [{beacon: lobby, measuredPower: -60}]\n", "gw.yaml:2", "'lobby' is not a beacon id"),
            (
                "  calibrations:\n    - {beacon: \"74278BDA-B644-4520-8F0C-720EAF059935:1:1\"}\n", "gw.yaml:3",
                "gives measuredPower, pathLossExponent or both"
            ),
        ])
    func mistakes(_ yaml: String, _ place: String, _ message: String) {
        #expect {
            try Self.ranging(yaml)
        } throws: { error in
            "\(error)".hasPrefix(place) && "\(error)".contains(message)
        }
    }
}
