import BeaconCore
import BeaconDaemonConfiguration
import BeaconSite
import BeaconTestSupport
import Foundation
import Testing

/// `beacond check-config` on a site hub's configuration (`site:` and `gateways:`, as
/// `beacond hub --config` runs it): checked as a hub, its rooms counting as regions and its
/// `hub:` options read; a broken one refused at its line (issue 25).
@Suite("check-config on a site hub's configuration")
struct CheckConfigHubTests {
    /// A hub file like the one `SiteProcessesTests` runs with `beacond hub`: no `source:`.
    /// Line 11 is the alert's, line 7 the `hub:` options'.
    static let hub = [
        "site: {name: e2e, broker: {host: 127.0.0.1, port: 1883}}", // 1
        "gateways:", // 2
        "  - {id: hall-a, room: hall, position: [1, 1, 2.5]}", // 3
        "  - {id: hall-b, room: hall, position: [5, 9, 2.5]}", // 4
        "  - {id: shop, room: shop, position: [14, 5, 2.5]}", // 5
        "hub:", // 6
        "  position: {tagHeight: 1.2, pathLossExponent: 2.0}", // 7
        "sinks:", // 8
        "  - {type: jsonl, path: -}", // 9
        "alerts:", // 10
        // 11:
        "  - {id: shop-dwell, match: {uuid: 0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A}, strategy: time, parameters: {dwell: 8s, room: shop}}",
    ]

    /// A broken hub file: what is changed, and what the error must say besides `hub.yaml:LINE`.
    struct Breakage: CustomStringConvertible, Sendable {
        let description: String
        let line: Int
        let replacing: String
        let with: String
        let says: String
    }

    static let breakages = [
        Breakage(
            description: "an alert naming a room the site has not got", line: 11, replacing: "room: shop}}",
            with: "room: cellar}}", says: "region 'cellar'"),
        Breakage(
            description: "a misspelt hub: key", line: 7, replacing: "  position: {", with: "  positon: {",
            says: "unknown key 'positon'"),
        Breakage(
            description: "a grid filter neither on, off nor settings", line: 7, replacing: "2.0}",
            with: "2.0, grid: sideways}", says: "hub.position.grid is 'on', 'off' or a mapping of its settings, not 'sideways'"),
        Breakage(
            description: "a grid cell of no size", line: 7, replacing: "2.0}", with: "2.0, grid: {cellSize: 0}}",
            says: "a cell side from 0.1 to 10 m"),
        Breakage(
            description: "a smoother lag past ten steps", line: 7, replacing: "2.0}", with: "2.0, grid: {lag: 11}}",
            says: "a whole number of steps from 0 to 10"),
        Breakage(
            description: "a wall of one point", line: 8, replacing: "sinks:", with: "walls: [[[0, 0]]]\nsinks:",
            says: "a wall needs at least 2 points [x, y], not 1"),
        Breakage(
            description: "a block on a floor no gateway names", line: 8, replacing: "sinks:",
            with: "blocks: [{min: [0, 0], max: [2, 2], floor: attic}]\nsinks:",
            says: "floor 'attic' is not one of the site's: the site names no floors"),
        Breakage(
            description: "a wall's point 10^12 m away", line: 8, replacing: "sinks:",
            with: "walls: [[[0, 0], [1e12, 0]]]\nsinks:", says: "a point of a floor plan within 10,000 km of the origin"),
        Breakage(
            description: "rooms: without gateways:", line: 3, replacing: "gateways:", with: "rooms:",
            says: "walls:, blocks: and rooms: draw a hub's floor plan"),
        Breakage(
            description: "a block whose max lies below its min", line: 8, replacing: "sinks:",
            with: "blocks: [{min: [3, 3], max: [2, 4]}]\nsinks:", says: "must lie above and right of its min"),
        Breakage(
            description: "an outline of a room named unknown", line: 8, replacing: "sinks:",
            with: "rooms: [{name: unknown, min: [0, 0], max: [2, 2]}]\nsinks:",
            says: "'unknown' cannot name a room: it is what the hub says when it cannot tell"),
        Breakage(
            description: "a room outlined twice", line: 10, replacing: "sinks:",
            with:
                "rooms:\n  - {name: hall, min: [0, 0], max: [2, 2]}\n  - {name: hall, outline: [[0, 0], [1, 0], [1, 1]]}\nsinks:",
            says: "room 'hall' is outlined twice"),
        Breakage(
            description: "a door off its room's outline", line: 8, replacing: "sinks:",
            with: "rooms: [{name: shop, min: [10, 0], max: [16, 10], doors: [[13, 5]]}]\nsinks:",
            says: "the door at [13.0, 5.0] is not on room 'shop''s outline: put it on the wall it opens"),
        Breakage(
            description: "a door 100 m wide", line: 8, replacing: "sinks:",
            with: "rooms: [{name: shop, min: [10, 0], max: [16, 10], doors: [{at: [10, 5], width: 100}]}]\nsinks:",
            says: "a door's width in metres"),
        Breakage(
            description: "a partition larger than the site's buckets", line: 7,
            replacing: "  position: {tagHeight: 1.2, pathLossExponent: 2.0}", with: "  partition: {index: 0, of: 64}",
            says: "exceeds site.buckets"),
    ]

    /// Writes `lines` as `hub.yaml` in a fresh directory and runs `beacond check-config` on it.
    static func check(_ lines: [String]) async throws -> CommandRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("check-config-hub-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try (lines.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("hub.yaml"), atomically: true, encoding: .utf8)
        return try await CommandRun.run(TestPaths.beacond, ["check-config", "hub.yaml"], directory: directory.path)
    }

    @Test("a valid hub file (site: and gateways:, no source:) is accepted as a hub: its rooms count as regions, exit 0")
    func validHub() async throws {
        let run = try await Self.check(Self.hub)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("hub.yaml: valid — a site hub's configuration (for beacond hub)"))
        #expect(run.standardOutput.contains("3 gateways in 2 rooms: hall, shop"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("1 alerts"))
    }

    @Test("hub.position.grid: on, off, or its settings, read as written")
    func gridSettings() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grid-settings-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func grid(_ value: String) throws -> GridTracking? {
            let path = directory.appendingPathComponent("hub.yaml").path
            let lines = Self.hub.map { $0.replacingOccurrences(of: "2.0}", with: "2.0, grid: \(value)}") }
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            return try #require(try GatewayConfiguration.load(path: path).hub).fusion.positioning.grid
        }
        #expect(try grid("off") == nil)
        #expect(try grid("on") == GridTracking())
        #expect(
            try grid("{cellSize: 0.4, maxCells: 2048, walkingSpeed: 1.5, stillShare: 0.6, sensitivity: off, momentum: 0.5}")
                == GridTracking(
                    cellSize: 0.4, maxCells: 2048, walkingSpeed: 1.5, stillShare: 0.6, sensitivity: nil, momentum: 0.5))
        #expect(try grid("{sensitivity: -90}") == GridTracking(sensitivity: -90))
        #expect(try grid("{lag: 0}") == GridTracking(lag: 0))
        #expect(try grid("{lag: 5}")?.lag == 5)
        #expect(GridTracking().lag == 2)
        // Unset or on, the grid filter tracks (SiteFusion's own test shows that); off keeps the
        // per-cycle fit.
        func tracks(_ value: String?) throws -> Bool {
            let path = directory.appendingPathComponent("hub.yaml").path
            let lines = Self.hub.map { line in
                value.map { line.replacingOccurrences(of: "2.0}", with: "2.0, grid: \($0)}") } ?? line
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            return try #require(try GatewayConfiguration.load(path: path).hub).fusion.positioning.gridByDefault
        }
        #expect(try tracks(nil))
        #expect(try !tracks("off"))
        #expect(try tracks("on"))
    }

    @Test(
        "a room outlined with no gateway in it is one of the hub's rooms and regions; refused, at its line, with the grid filter off or on two floors"
    )
    func roomWithoutGateway() async throws {
        let cellar = "rooms: [{name: cellar, min: [0, 0], max: [2, 2]}]"
        // An alert may name it: it is a region like the gateways' rooms.
        let alertInCellar = Self.hub.map { $0.replacingOccurrences(of: "room: shop}}", with: "room: cellar}}") }
        let accepted = try await Self.check(alertInCellar + [cellar])
        #expect(accepted.status == 0, "\(accepted.standardError)")
        #expect(accepted.standardOutput.contains("3 gateways in 3 rooms: hall, shop, cellar"), "\(accepted.standardOutput)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cellar-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hub.yaml").path
        try ((Self.hub + [cellar]).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let layout = try #require(try GatewayConfiguration.load(path: path).hub).layout
        #expect(layout.rooms == ["hall", "shop", "cellar"])
        #expect(Array(layout.roomsWithoutGateway) == ["cellar"])
        // Only the grid filter can place a tag in it.
        let gridOff = Self.hub.map { $0.replacingOccurrences(of: "2.0}", with: "2.0, grid: off}") }
        let refused = try await Self.check(gridOff + [cellar])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("hub.yaml:7"), "\(refused.standardError)")
        #expect(
            refused.standardError.contains(
                "room 'cellar' has no gateway: only the grid filter can place a tag in it, and hub.position.grid is off"),
            "\(refused.standardError)")
        // Nor does the grid filter tell floors apart.
        let twoFloors = Self.hub.map {
            $0.replacingOccurrences(of: "2.5]}", with: $0.contains("shop") ? "2.5], floor: first}" : "2.5], floor: ground}")
        }
        let onTwoFloors = try await Self.check(twoFloors + [cellar])
        #expect(onTwoFloors.status == 2)
        #expect(onTwoFloors.standardError.contains("hub.yaml:12"), "\(onTwoFloors.standardError)")
        #expect(
            onTwoFloors.standardError.contains("room 'cellar' has an outline but no gateway, on a site of 2 floors"),
            "\(onTwoFloors.standardError)")
    }

    @Test("walls:, blocks: and rooms: beside gateways: are the layout's obstacles and outlines, as drawn")
    func floorPlanObstacles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("floor-plan-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hub.yaml").path
        let plan = [
            "walls: [[[0, 0], [8, 0], [8, 3]], {line: [[4, 4], [4, 9]]}]",
            "blocks: [[[1, 1], [3, 1], [2, 3]], {min: [10, 2], max: [12, 6]}]",
            "rooms: [{name: hall, outline: [[0, 0], [10, 0], [10, 10]]}, {name: shop, min: [10, 0], max: [16, 10]}]",
        ]
        try ((Self.hub + plan).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let layout = try #require(try GatewayConfiguration.load(path: path).hub).layout
        #expect(
            layout.roomOutlines == [
                SiteRoomOutline(room: "hall", corners: [SIMD2(0, 0), SIMD2(10, 0), SIMD2(10, 10)]),
                SiteRoomOutline(room: "shop", corners: [SIMD2(10, 0), SIMD2(16, 0), SIMD2(16, 10), SIMD2(10, 10)]),
            ])
        let obstacles = layout.obstacles
        #expect(
            obstacles == [
                SiteObstacle(.wall([SIMD2(0, 0), SIMD2(8, 0), SIMD2(8, 3)])),
                SiteObstacle(.wall([SIMD2(4, 4), SIMD2(4, 9)])),
                SiteObstacle(.block([SIMD2(1, 1), SIMD2(3, 1), SIMD2(2, 3)])),
                SiteObstacle(.block([SIMD2(10, 2), SIMD2(12, 2), SIMD2(12, 6), SIMD2(10, 6)])),
            ])
    }

    @Test("a walled room's outline is walls on the layout, opened where its doors are")
    func walledRoomWithDoors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("doors-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hub.yaml").path
        let plan = ["rooms: [{name: shop, min: [10, 0], max: [16, 10], doors: [[10, 5], {at: [13, 10.2], width: 2}]}]"]
        try ((Self.hub + plan).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let hub = try #require(try GatewayConfiguration.load(path: path).hub)
        #expect(
            hub.layout.roomOutlines.first?.doors == [
                SiteDoor(center: SIMD2(10, 5)), SiteDoor(center: SIMD2(13, 10.2), width: 2),
            ])
        // Bottom and right whole; the top opened from 14 to 12 m, the left from 4.5 to 5.5 m.
        #expect(
            hub.layout.obstacles == [
                SiteObstacle(.wall([SIMD2(10, 0), SIMD2(16, 0)])),
                SiteObstacle(.wall([SIMD2(16, 0), SIMD2(16, 10)])),
                SiteObstacle(.wall([SIMD2(16, 10), SIMD2(14, 10)])),
                SiteObstacle(.wall([SIMD2(12, 10), SIMD2(10, 10)])),
                SiteObstacle(.wall([SIMD2(10, 10), SIMD2(10, 5.5)])),
                SiteObstacle(.wall([SIMD2(10, 4.5), SIMD2(10, 0)])),
            ])
        // The grid filter (on by default) is what keeps to them.
        #expect(hub.fusion.positioning.gridByDefault)
    }

    @Test("walls: without gateways: (an alerts file) is refused: the plan belongs beside the gateways")
    func wallsWithoutGateways() async throws {
        let run = try await Self.check(["hub: {position: {grid: on}}", "walls: [[[0, 0], [1, 0]]]", "alerts: []"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("hub.yaml:2"), "\(run.standardError)")
        #expect(run.standardError.contains("they need the site's gateways: beside them"), "\(run.standardError)")
    }

    @Test("the same hub with source: hub is accepted as a hub, for beacond hub or run")
    func validHubWithSource() async throws {
        let run = try await Self.check(["source: hub"] + Self.hub)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("a site hub's configuration (for beacond hub or beacond run)"))
    }

    /// Every bundled site scenario's alerts file, with the rooms its alerts name.
    static let siteAlerts: [(scenario: String, rooms: String)] = [
        ("site", "shop, cafe"), ("site-calibration", "shop, cafe"), ("site-espresense", "shop, cafe"),
        ("two-floors", "meeting, cafe"), ("hall-session", "north-west, south-west"), ("hall-aisles", "north-east"),
        ("hall-walks", "south-east"), ("flat", "bedroom"),
    ]

    @Test(
        "every bundled site alerts file is accepted as a simulated site's alerts, naming the rooms it uses", arguments: siteAlerts
    )
    func bundledSiteAlerts(scenario: String, rooms: String) async throws {
        let run = try await CommandRun.run(
            TestPaths.beacond, ["check-config", "Simulator/Scenarios/\(scenario).alerts.yaml"],
            directory: TestPaths.repositoryRoot)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("a simulated site's alerts file"))
        #expect(run.standardOutput.contains("rooms named: \(rooms),"), "\(run.standardOutput)")
    }

    @Test("the list above holds every bundled site scenario (one with rooms:) that has an alerts file")
    func everySiteAlertsFileListed() throws {
        let directory = TestPaths.repositoryRoot + "/Simulator/Scenarios"
        let sites = try FileManager.default.contentsOfDirectory(atPath: directory).filter { name in
            guard name.hasSuffix(".yaml"), !name.hasSuffix(".alerts.yaml") else { return false }
            let scenario = String(name.dropLast(".yaml".count))
            guard FileManager.default.fileExists(atPath: "\(directory)/\(scenario).alerts.yaml") else { return false }
            let text = try String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)
            return text.hasPrefix("rooms:") || text.contains("\nrooms:")
        }
        #expect(Set(sites.map { String($0.dropLast(".yaml".count)) }) == Set(Self.siteAlerts.map(\.scenario)))
    }

    @Test("an alerts file whose devices take the scenario's keys (irk: scenario) is checked, the devices named as the scenario's")
    func scenarioKeysInAnAlertsFile() async throws {
        let run = try await CommandRun.run(
            TestPaths.beacond, ["check-config", "Simulator/Scenarios/home.alerts.yaml"], directory: TestPaths.repositoryRoot)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("devices with irk: scenario (ada-phone) take their keys from the scenario's phones"))
    }

    @Test("an alerts file naming rooms without hub: is refused at the alert, saying how a simulated site's alerts file says so")
    func roomsWithoutHub() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rooms-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("alerts.yaml").path
        try "alerts:\n  - {id: rest, strategy: time, parameters: {dwell: 10m, room: bedroom}}\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let run = try await CommandRun.run(TestPaths.beacond, ["check-config", path])
        #expect(run.status == 2)
        #expect(run.standardError.contains("\(path):2: region 'bedroom' is not under ranging.regions"), "\(run.standardError)")
        #expect(run.standardError.contains("say so with a hub: section (hub: {} for the defaults)"))
    }

    @Test("a broken hub file is refused with exit 2 at its file:line", arguments: breakages)
    func brokenHub(_ breakage: Breakage) async throws {
        let lines = Self.hub.map { $0.replacingOccurrences(of: breakage.replacing, with: breakage.with) }
        #expect(lines != Self.hub)
        let run = try await Self.check(lines)
        #expect(run.status == 2)
        #expect(run.standardError.contains("hub.yaml:\(breakage.line)"), "\(run.standardError)")
        #expect(run.standardError.contains(breakage.says), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
    }

    @Test("a hub file without source: is refused a ranging: section, at its line, as with source: hub")
    func hubWithRanging() async throws {
        let run = try await Self.check(Self.hub + ["ranging: {cycle: 1s}"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("hub.yaml:12"), "\(run.standardError)")
        #expect(run.standardError.contains("a hub does no ranging of its own"))
    }

    @Test("gateways: without site: is refused at the gateways, saying what a hub needs")
    func hubWithoutSite() async throws {
        let run = try await Self.check(Array(Self.hub.dropFirst()))
        #expect(run.status == 2)
        #expect(run.standardError.contains("hub.yaml:2:"), "\(run.standardError)")
        #expect(run.standardError.contains("needs site:"))
    }
}
