import BeaconCore
import BeaconSimulator
import BeaconWire
import FoundationEssentials
import Testing

@Suite("Simulation engine")
struct SimulationEngineTests {
    func lobby() throws -> Scenario { try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml")) }

    @Test("the same seed gives identical bytes and timestamps")
    func sameSeed() throws {
        let a = TestSupport.runAll(try lobby(), seed: 5)
        let b = TestSupport.runAll(try lobby(), seed: 5)
        #expect(a.packets.count > 100)
        #expect(a.packets.map(\.0) == b.packets.map(\.0))
        #expect(a.packets.map(\.1) == b.packets.map(\.1))
    }

    @Test("a different seed gives different bytes")
    func differentSeed() throws {
        let a = TestSupport.runAll(try lobby(), seed: 5)
        let b = TestSupport.runAll(try lobby(), seed: 6)
        #expect(a.packets.map(\.0) != b.packets.map(\.0))
    }

    @Test("timestamps never go backwards and stay within the scenario")
    func ordered() throws {
        let scenario = try lobby()
        let times = TestSupport.runAll(scenario).packets.map(\.0)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(times.first! >= scenario.start && times.last! <= scenario.end + .milliseconds(2))
    }

    @Test("advertising interval plus advDelay: gaps within [interval, interval + 10 ms], mean interval + 5 ms")
    func advertisingInterval() {
        let radio = RadioModel(shadowingSigma: 0, collisions: false)
        let run = TestSupport.runAll(
            TestSupport.fixedScenario(interval: .milliseconds(100), duration: .seconds(200), radio: radio))
        let times = run.packets.map { Double($0.0.nanosecondsSinceEpoch) / 1e6 }
        // Consecutive reports one event apart (an event missed at a scan-channel switch doubles a gap;
        // one heard on two channels across a switch adds a sub-millisecond gap).
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 50 && $0 < 150 }
        #expect(gaps.count > 1800)
        // Each report sits 0, 0.5 or 1 ms into its event (channel 37, 38, 39): ±1 ms on each gap.
        #expect(gaps.min()! >= 99 && gaps.max()! <= 111)
        let mean = gaps.reduce(0, +) / Double(gaps.count)
        #expect(abs(mean - 105) < 0.3) // U(0,10) delay: σ 2.9 ms, standard error ≈ 0.07 ms
        let belowMiddle = Double(gaps.filter { $0 < 105 }.count) / Double(gaps.count)
        #expect(abs(belowMiddle - 0.5) < 0.06)
        // The number of events: 200 s / 105 ms ≈ 1905.
        #expect(abs(run.statistics.advertisements - 1905) < 25)
    }

    @Test("scanner duty cycle: a 25 ms window every 100 ms hears about a quarter of the events")
    func dutyCycle() throws {
        let radio = RadioModel(shadowingSigma: 0, collisions: false)
        let scan = try ScanTiming(interval: .milliseconds(100), window: .milliseconds(25))
        #expect(scan.dutyCycle == 0.25)
        let run = TestSupport.runAll(TestSupport.fixedScenario(count: 4, duration: .seconds(100), radio: radio, scan: scan))
        let fraction = Double(run.packets.count) / Double(run.statistics.advertisements)
        // n ≈ 3800: standard error ≈ 0.007.
        #expect(abs(fraction - 0.25) < 0.03)
    }

    @Test("emitted bytes parse back to the beacon's iBeacon id and RSSI", arguments: GatewaySpec.reportKinds)
    func bytesParseBack(format: AdvertisingReportKind) throws {
        let radio = RadioModel(pathLossExponent: 2.0, shadowingSigma: 0, collisions: false)
        let scenario = TestSupport.fixedScenario(count: 2, distance: 10, duration: .seconds(5), radio: radio, format: format)
        let expectedIDs: Set<BeaconID> = [
            .iBeacon(uuid: UUID(uuidString: "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5")!, major: 7, minor: 1),
            .iBeacon(uuid: UUID(uuidString: "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5")!, major: 7, minor: 2),
        ]
        var seen: Set<BeaconID> = []
        let run = TestSupport.runAll(scenario)
        #expect(run.packets.count > 80)
        for (_, bytes) in run.packets {
            var decoded: [(AdvertisingReportKind, Int8?, AddressType, BeaconFrame?)] = []
            try bytes.withUnsafeBytes { raw in
                try HCIEventParser.forEachAdvertisingReport(inEvent: raw) { report in
                    decoded.append(
                        (report.kind, report.rssi, report.addressType, BeaconFrame.find(inAdvertisingData: report.data)))
                }
            }
            #expect(decoded.count == 1)
            for (kind, rssi, addressType, frame) in decoded {
                #expect(kind == (format == .legacy ? .legacy : .extended))
                #expect(rssi == -79) // −59 − 20·log10(10)
                #expect(addressType == .random)
                let frame = try #require(frame)
                #expect(frame.measuredPower == -59)
                seen.insert(frame.id)
            }
        }
        #expect(seen == expectedIDs)
    }

    @Test("the lobby's Eddystone poster sends TLM frames every 10th advertisement")
    func telemetry() throws {
        let run = TestSupport.runAll(try lobby())
        var tlm = 0, uid = 0
        for (_, bytes) in run.packets {
            bytes.withUnsafeBytes { raw in
                try? HCIEventParser.forEachAdvertisingReport(inEvent: raw) { (report: AdvertisingReport) throws(WireError) in
                    var structures = report.adStructures
                    while let structure = try structures.next() {
                        guard structure.type == .serviceData16 else { continue }
                        let d = structure.data
                        if d.count > 2, d[2] == 0x20 { tlm += 1 } else if d.count > 2, d[2] == 0x00 { uid += 1 }
                    }
                }
            }
        }
        #expect(tlm > 5)
        #expect(uid > 8 * tlm)
    }
}

@Suite("Bundled scenarios run")
struct BundledScenarioRunTests {
    @Test(
        "the first 10 virtual seconds of each scenario, at each gateway, parse as advertising reports",
        arguments: ["lobby.yaml", "museum.yaml", "warehouse.yaml", "stress.yaml", "gateway-load.yaml"])
    func runs(file: String) throws {
        var scenario = try Scenario.load(path: TestSupport.scenarioPath(file))
        scenario.duration = .seconds(10)
        for gateway in scenario.gateways.indices {
            let run = TestSupport.runAll(scenario, gateway: gateway)
            var reports = 0, beacons = 0
            for (_, bytes) in run.packets {
                bytes.withUnsafeBytes { raw in
                    try? HCIEventParser.forEachAdvertisingReport(inEvent: raw) { (report: AdvertisingReport) throws(WireError) in
                        reports += 1
                        if BeaconFrame.find(inAdvertisingData: report.data) != nil { beacons += 1 }
                    }
                }
            }
            #expect(reports == run.packets.count, "gateway \(gateway)")
            #expect(reports > 0, "gateway \(gateway)")
            #expect(beacons > 0, "gateway \(gateway)")
            #expect(run.statistics.reports == run.packets.count)
        }
    }
}

@Suite("Lobby reception")
struct LobbyReceptionTests {
    @Test("visitor 1 is heard from its arrival to its departure (≈ 98.3 s), visitor 2 only while crossing (20–30 s)")
    func presence() throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml"))
        var heard: [UInt16: [Timestamp]] = [:]
        for (time, bytes) in TestSupport.runAll(scenario).packets {
            bytes.withUnsafeBytes { raw in
                try? HCIEventParser.forEachAdvertisingReport(inEvent: raw) { (report: AdvertisingReport) throws(WireError) in
                    if let frame = BeaconFrame.find(inAdvertisingData: report.data), frame.id.major == 1 {
                        heard[frame.id.minor, default: []].append(time)
                    }
                }
            }
        }
        let t = { (seconds: Double) in scenario.start + .milliseconds(Int64(seconds * 1000)) }
        let first = try #require(heard[1]), second = try #require(heard[2])
        // 1 Hz with 2 % loss: the first report within ~2 s of arrival, the last within ~2 s of leaving.
        #expect(first.first! < t(2.5) && first.last! > t(96) && first.last! <= t(98.4))
        #expect(first.count > 85 && first.count <= 100)
        #expect(second.first! >= t(20) && second.last! <= t(30.1))
        #expect(second.count >= 7 && second.count <= 11)
    }
}
