import BeaconCore
import BeaconOfflineRuns
import BeaconSimulator
import BeaconSite
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Testing

/// A room no gateway is in (a corridor between two rooms that have theirs), outlined on the floor
/// plan: the grid filter's posterior is the only evidence of it, and the hub places a tag there.
@Suite("A room with no gateway, placed by the grid filter")
struct SiteRoomWithoutGatewayTests {
    /// Two rooms with two gateways each, a 4 m corridor between them with none; one walker stays
    /// two minutes in each room and three in the corridor.
    static let scenario = """
        name: corridor
        start: 2025-01-01T10:00:00Z
        duration: 8m
        seed: 5
        radio: {path_loss_exponent: 2.0, shadowing_sigma: 2.0, packet_loss: 0.05, sensitivity: -100}
        rooms:
          - {name: west, area: {min: [0, 0], max: [6, 8]}}
          - {name: corridor, area: {min: [6, 0], max: [10, 8]}}
          - {name: east, area: {min: [10, 0], max: [16, 8]}}
        gateways:
          - {name: west-1, room: west, position: [1, 1, 2.5]}
          - {name: west-2, room: west, position: [1, 7, 2.5]}
          - {name: east-1, room: east, position: [15, 1, 2.5]}
          - {name: east-2, room: east, position: [15, 7, 2.5]}
        walkers:
          - name: walker
            speed: 1.0
            waypoints:
              - {at: [3, 4, 1.2], dwell: 2m}
              - {at: [8, 4, 1.2], dwell: 3m}
              - {at: [13, 4, 1.2], dwell: 2m}
        beacons:
          - name: tag
            ibeacon: {uuid: 2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6, major: 1, minor: 1}
            measured_power: -59
            interval: 200ms
            carried_by: walker
        """

    /// The hub's settings: its radio model the scenario's (as `site.alerts.yaml` gives the shop's).
    static func fusion(grid: Bool = true) -> SiteFusionConfiguration {
        var fusion = SiteFusionConfiguration()
        fusion.positioning.pathLossExponent = 2.0
        fusion.positioning.tagHeight = 1.2
        fusion.positioning.gridByDefault = grid
        return fusion
    }

    /// The hub's room per presence line, by the line's time (s from the start).
    static func rooms(fusion: SiteFusionConfiguration) throws -> (rooms: [(t: Double, room: String?)], layout: [String]) {
        let scenario = try Scenario.parse(yaml: Self.scenario)
        var presence: [String] = []
        let site = try SiteSimulation(
            scenario: scenario, fusion: fusion, alerts: [], registry: .builtIn(), presence: { presence.append($0) })
        _ = try site.run { _ in }
        let start = scenario.start.nanosecondsSinceEpoch
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var rooms: [(t: Double, room: String?)] = []
        for line in presence.flatMap({ $0.split(separator: "\n") }) {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["beacon"] != nil, let time = (object["time"] as? String).flatMap(formatter.date(from:))
            else { continue }
            let seconds = time.timeIntervalSince1970 - Double(start) / 1e9
            rooms.append((seconds, object["room"] as? String))
        }
        return (rooms, site.layout.rooms)
    }

    /// The share of the lines from `from` to `to` s that say `room`.
    static func share(_ rooms: [(t: Double, room: String?)], _ room: String, from: Double, to: Double) -> Double {
        let lines = rooms.filter { $0.t >= from && $0.t < to }
        return lines.isEmpty ? 0 : Double(lines.filter { $0.room == room }.count) / Double(lines.count)
    }

    @Test("the corridor is one of the hub's rooms, and a tag staying in it is placed there; the rooms beside it still are")
    func corridorIsPlaced() throws {
        let (rooms, layout) = try Self.rooms(fusion: Self.fusion())
        #expect(layout == ["west", "east", "corridor"])
        // The walker reaches the corridor at about 125 s and leaves it at about 305 s; the middle
        // of each stay, past the room rule's dwell and the tag's walk.
        let corridor = Self.share(rooms, "corridor", from: 150, to: 300)
        #expect(corridor >= 0.9, "corridor \(corridor)")
        let west = Self.share(rooms, "west", from: 20, to: 115)
        let east = Self.share(rooms, "east", from: 340, to: 420)
        #expect(west >= 0.9, "west \(west)")
        #expect(east >= 0.9, "east \(east)")
    }

    @Test("with the grid filter off (a hub's file refuses that), the corridor is never a tag's room")
    func perCycleCannotPlaceIt() throws {
        let (rooms, _) = try Self.rooms(fusion: Self.fusion(grid: false))
        #expect(!rooms.isEmpty)
        #expect(Self.share(rooms, "corridor", from: 0, to: 480) == 0)
    }
}
