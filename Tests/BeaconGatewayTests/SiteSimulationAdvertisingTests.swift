import BeaconCore
import BeaconDaemonConfiguration
import BeaconOfflineRuns
import BeaconSimulator
import BeaconSite
import BeaconSiteReport
import BeaconStrategies
import BeaconTestSupport
import Foundation
import Testing

/// Gateways that advertise (`advertise: true` in a site scenario) are heard by the other gateways
/// through the same radio model as beacons — never by themselves — under the identity
/// `SiteGatewayBeacon.identity(site: <scenario name>, gateway: <name>)`, and the hub's layout
/// knows each of those identities as the anchor of its gateway.
@Suite("A simulated site whose gateways advertise")
struct SiteSimulationAdvertisingTests {
    static let yaml = """
        name: calibration-hall
        duration: 20s
        seed: 3
        radio: {path_loss_exponent: 2.0, shadowing_sigma: 1.0}
        rooms:
          - {name: west, area: {min: [0, 0], max: [10, 10]}}
          - {name: east, area: {min: [10, 0], max: [20, 10]}}
        gateways:
          - {name: west-a, position: [1, 1, 2.5], advertise: true}
          - {name: west-b, position: [9, 5, 2.5], advertise: true, advertise_power: -62}
          - {name: east-a, position: [18, 8, 2.5], advertise: true}
          - {name: east-b, position: [12, 2, 2.5]}
        beacons:
          - {name: tag, ibeacon: {uuid: 0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A, major: 1, minor: 1}, position: [5, 5, 1]}
        """

    @Test("each gateway's records carry the other advertising gateways at an RSSI plausible for their distance, never itself")
    func gatewaysHearEachOther() throws {
        let scenario = try Scenario.parse(yaml: Self.yaml, file: "hall.yaml")
        let site = try SiteSimulation(scenario: scenario, alerts: [], registry: .builtIn())
        var heard: [String: [BeaconID: [Double]]] = [:]
        site.gatewayReports = { gateway, records in
            for record in records where record.seen {
                if let rssi = record.meanRSSI ?? record.rssi {
                    heard[gateway, default: [:]][record.beacon, default: []].append(rssi)
                }
            }
        }
        _ = try site.run { _ in }

        let advertisers = scenario.gateways.enumerated().filter { $0.element.advertise }
        #expect(advertisers.count == 3)
        for (listenerIndex, listener) in scenario.gateways.enumerated() {
            let records = heard[listener.name, default: [:]]
            for (advertiserIndex, advertiser) in advertisers {
                let id = SiteGatewayBeacon.identity(site: "calibration-hall", gateway: advertiser.name)
                // The hub knows the identity as the anchor of that gateway, at its position.
                let anchor = try #require(site.layout.anchor(id))
                #expect(anchor.gateway == advertiserIndex)
                #expect(anchor.position == advertiser.position)
                if advertiserIndex == listenerIndex {
                    #expect(records[id] == nil, "\(listener.name) heard itself")
                    continue
                }
                let samples = try #require(records[id], "\(listener.name) never heard \(advertiser.name)")
                #expect(samples.count >= 10)
                let expected = scenario.radio.meanRSSI(
                    measuredPower: advertiser.advertisePower, distance: advertiser.position.distance(to: listener.position))
                let median = samples.sorted()[samples.count / 2]
                #expect(
                    abs(median - expected) < 3, "\(listener.name) hears \(advertiser.name) at \(median) dBm, model \(expected)")
            }
        }
        // The gateway that does not advertise is no one's measurement, but an anchor all the same.
        let silent = SiteGatewayBeacon.identity(site: "calibration-hall", gateway: "east-b")
        #expect(heard.values.allSatisfy { $0[silent] == nil })
        #expect(site.layout.anchor(silent)?.gateway == 3)
    }

    @Test("the scenario lists each advertising gateway as a beacon at its position, with its identity and power")
    func scenarioBeacons() throws {
        let scenario = try Scenario.parse(yaml: Self.yaml, file: "hall.yaml")
        let gatewayBeacons = scenario.beacons.filter { $0.gateway != nil }
        #expect(gatewayBeacons.map(\.name) == ["gateway-west-a", "gateway-west-b", "gateway-east-a"])
        #expect(gatewayBeacons.map(\.gateway) == [0, 1, 2])
        #expect(
            gatewayBeacons[1].identity.beaconID == SiteGatewayBeacon.identity(site: "calibration-hall", gateway: "west-b"))
        #expect(gatewayBeacons[1].measuredPower == -62)
        #expect(gatewayBeacons[1].placement == .fixed(scenario.gateways[1].position))
        // Not something to track: the truth's stays leave them out.
        #expect(SiteTruth(scenario: scenario).stays().allSatisfy { $0.beaconIndex == 0 })
    }
}

/// The bundled `site-calibration.yaml`: the shop with a deaf entrance dongle (−6 dB), a hot café
/// one (+4 dB), every gateway advertising, and a hub told only the badges' height.
@Suite("Self-calibration on a simulated site whose gateways advertise")
struct SiteCalibrationSimulationTests {
    @Test("the hub finds the exponent and both receive offsets from the gateways' pairs, and positions beat the fixed model")
    func calibratesTheShop() throws {
        let path = TestPaths.repositoryRoot + "/Simulator/Scenarios/site-calibration.yaml"
        let scenario = try Scenario.load(path: path)
        let fusion = try #require(
            try GatewayConfiguration.load(path: TestPaths.repositoryRoot + "/Simulator/Scenarios/site-calibration.alerts.yaml")
                .siteFusion)
        #expect(fusion.positioning.tagHeight == 1.2)
        #expect(!fusion.calibration.fixedExponent && fusion.calibration.fixedOffsets.isEmpty)
        var fixed = fusion
        fixed.calibration.enabled = false
        var medians: [Double] = []
        var model: SiteRadioModel?
        let truth = FileManager.default.temporaryDirectory.appendingPathComponent("calibration-truth-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: truth) }
        try GroundTruth(scenario: scenario).write(toFile: truth, includeDistances: false)
        for configuration in [fusion, fixed] {
            var lines = ""
            let site = try SiteSimulation(
                scenario: scenario, fusion: configuration, alerts: [], registry: .builtIn(), presence: { lines += $0 })
            _ = try site.run { _ in }
            if configuration.calibration.enabled {
                let status = try #require(site.calibrationStatus)
                #expect(status.applied >= 1, "\(status.summary)")
                #expect(status.anchorMeasurements > 1000)
                model = status.model
            }
            let presence = FileManager.default.temporaryDirectory.appendingPathComponent("calibration-\(UUID()).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: presence) }
            try lines.write(toFile: presence, atomically: true, encoding: .utf8)
            medians.append(try #require(try SiteScoring.score(presence: presence, truth: truth).medianPositionError))
        }
        let found = try #require(model)
        #expect(abs(found.pathLossExponent - 2.0) < 0.2, "\(found)")
        // Offsets are known up to one common value: the entrance +6 and the café −4 relative to
        // the shop floor's two (0), within 1.5 dB.
        let shopFloor = (found.receiveOffsets[1] + found.receiveOffsets[2]) / 2
        #expect(abs(found.receiveOffsets[0] - shopFloor - 6) < 1.5, "\(found.receiveOffsets)")
        #expect(abs(found.receiveOffsets[3] - shopFloor + 4) < 1.5, "\(found.receiveOffsets)")
        #expect(medians[0] < medians[1], "self-calibrated \(medians[0]) m, fixed \(medians[1]) m")
    }

    @Test(
        "the long session: a tag parked for 30 minutes does not drag the offsets to their bounds; after its walk the hub applies a model that follows the receivers' gains"
    )
    func longSessionEndsWithAnAppliedModel() throws {
        let root = TestPaths.repositoryRoot + "/Simulator/Scenarios/"
        let scenario = try Scenario.load(path: root + "hall-session.yaml")
        let fusion = try #require(try GatewayConfiguration.load(path: root + "hall-session.alerts.yaml").siteFusion)
        let site = try SiteSimulation(scenario: scenario, fusion: fusion, alerts: [], registry: .builtIn())
        _ = try site.run { _ in }
        let status = try #require(site.calibrationStatus)
        #expect(status.applied >= 1, "\(status.summary)")
        #expect(status.verdict != .degenerate, "\(status.summary)")
        let names = scenario.gateways.map(\.name)
        #expect(status.gateways == names)
        let offsets = status.model.receiveOffsets
        #expect(offsets.allSatisfy { abs($0) < 10 }, "\(offsets)")
        // A receive offset undoes its receiver's bias (`rssi_bias`), up to one value common to
        // all: compared in pairs, the two most apart (sensor41 reads 5 dB hot, sensor30 6 dB deaf)
        // and two nearer (sensor20 4 dB deaf, sensor12 3 dB hot), each within 3 dB.
        func offset(_ name: String) throws -> Double { offsets[try #require(names.firstIndex(of: name))] }
        func bias(_ name: String) throws -> Double { try #require(scenario.gateways.first { $0.name == name }).rssiBias }
        for (a, b) in [("sensor41", "sensor30"), ("sensor20", "sensor12")] {
            let found = try offset(a) - offset(b)
            let expected = -(try bias(a) - bias(b))
            #expect(abs(found - expected) < 3, "\(a) − \(b): \(found) dB, the biases say \(expected) dB")
        }
    }
}
