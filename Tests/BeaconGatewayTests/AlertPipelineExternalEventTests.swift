import BeaconAlertEngine
import BeaconCore
import BeaconGateway
import BeaconPipeline
import BeaconStrategyKit
import Foundation
import Testing

/// Named events posted to the pipeline (what `POST /events/NAME` does), and the presence changes
/// it records for retained beacon state — on explicit timestamps.
@Suite("AlertPipeline: posted events and presence")
struct AlertPipelineExternalEventTests {
    static let t0 = AlertPipelineTests.t0
    static let beacon1 = BeaconID.iBeacon(uuid: AlertPipelineTests.uuid, major: 1, minor: 1)
    static let beacon2 = BeaconID.iBeacon(uuid: AlertPipelineTests.uuid, major: 1, minor: 2)

    /// Beacons 1 and 2 are seen at 0.5 s, 1.5 s and 2.5 s; `enter` fires for each at the 1 s
    /// cycle end, scheduling delivery for 09:01:01 (`delay: 1m`).
    static func twoPendingAlerts() throws -> (AlertPipeline, [AlertEvent]) {
        let pipeline = try AlertPipelineTests.pipeline(
            """
            alerts:
              - {id: welcome, strategy: enter, delay: 1m, cancelOn: [{event: closing}]}
            """)
        var events: [AlertEvent] = []
        for second in [0.5, 1.5, 2.5] {
            for minor: UInt16 in [1, 2] {
                try pipeline.ingest(AlertPipelineTests.sighting(second, minor: minor)) { events.append($0.event) }
            }
        }
        return (pipeline, events)
    }

    @Test("a posted event named in cancelOn cancels every beacon's pending alert, at the time it is posted")
    func cancelsAll() throws {
        var (pipeline, events) = try Self.twoPendingAlerts()
        #expect(events.map(\.kind) == [.created, .created])
        try pipeline.post(.external(name: "closing", beacon: nil), now: Self.t0 + .seconds(30)) { events.append($0.event) }
        try pipeline.advance(to: Self.t0 + .seconds(120)) { events.append($0.event) }
        #expect(events.map(\.kind) == [.created, .created, .cancelled, .cancelled])
        #expect(Set(events.suffix(2).map(\.beacon)) == [Self.beacon1, Self.beacon2])
        #expect(events.suffix(2).allSatisfy { $0.time == Self.t0 + .seconds(30) })
        #expect(events.last?.messages == ["cancelled: event 'closing' happened"])
    }

    @Test("posted for one beacon, it cancels that beacon's alert only; the other is delivered on time")
    func cancelsOne() throws {
        var (pipeline, events) = try Self.twoPendingAlerts()
        try pipeline.post(.external(name: "closing", beacon: Self.beacon2), now: Self.t0 + .seconds(30)) {
            events.append($0.event)
        }
        try pipeline.advance(to: Self.t0 + .seconds(120)) { events.append($0.event) }
        #expect(events.map(\.kind) == [.created, .created, .cancelled, .delivered])
        #expect(events[2].beacon == Self.beacon2)
        #expect(events[3].beacon == Self.beacon1)
        #expect(events[3].time == Self.t0 + .seconds(61))
    }

    @Test("an event no alert names cancels nothing")
    func otherName() throws {
        var (pipeline, events) = try Self.twoPendingAlerts()
        try pipeline.post(.external(name: "opening", beacon: nil), now: Self.t0 + .seconds(30)) { events.append($0.event) }
        try pipeline.advance(to: Self.t0 + .seconds(120)) { events.append($0.event) }
        #expect(events.map(\.kind) == [.created, .created, .delivered, .delivered])
    }

    @Test("posted after the alert fell due, the alert is delivered first and nothing is cancelled")
    func afterDue() throws {
        var (pipeline, events) = try Self.twoPendingAlerts()
        try pipeline.post(.external(name: "closing", beacon: nil), now: Self.t0 + .seconds(90)) { events.append($0.event) }
        #expect(events.map(\.kind) == [.created, .created, .delivered, .delivered])
    }

    @Test("the latest time is the latest packet's, then the latest advance")
    func latestTime() throws {
        let pipeline = try AlertPipelineTests.pipeline("alerts: []\n")
        #expect(pipeline.latestTime == nil)
        try pipeline.ingest(AlertPipelineTests.sighting(2.5)) { _ in }
        #expect(pipeline.latestTime == Self.t0 + .milliseconds(2500))
        try pipeline.advance(to: Self.t0 + .seconds(10)) { _ in }
        #expect(pipeline.latestTime == Self.t0 + .seconds(10))
    }

    /// With the default ranging (1 s cycles, eviction after a retention period), a beacon seen
    /// for 3 s appears once at the first cycle end, and leaves when it is evicted.
    @Test("presence changes: a beacon appears once, and leaves once when no longer tracked")
    func presence() throws {
        let pipeline = try AlertPipelineTests.pipeline("alerts: []\n")
        pipeline.recordsPresence = true
        for second in [0.5, 1.5, 2.5] { try pipeline.ingest(AlertPipelineTests.sighting(second)) { _ in } }
        let appeared = pipeline.takePresenceChanges()
        #expect(appeared.count == 1)
        #expect(appeared.first?.id == Self.beacon1)
        #expect(appeared.first?.present == true)
        #expect(appeared.first?.proximity != .unknown)
        #expect(pipeline.takePresenceChanges().isEmpty)
        try pipeline.advance(to: Self.t0 + .seconds(3600)) { _ in }
        let left = pipeline.takePresenceChanges().filter { !$0.present }
        #expect(left.map(\.id) == [Self.beacon1])
        #expect(left.first?.state == "away")
        #expect(pipeline.trackedBeacons == 0)
    }

    @Test("presence is not recorded unless asked for")
    func presenceOff() throws {
        let pipeline = try AlertPipelineTests.pipeline("alerts: []\n")
        for second in [0.5, 1.5, 2.5] { try pipeline.ingest(AlertPipelineTests.sighting(second)) { _ in } }
        #expect(pipeline.takePresenceChanges().isEmpty)
    }

    @Test("a presence as JSON: state, proximity, rounded distance and RSSI (none once gone), last seen")
    func presenceJSON() {
        let presence = BeaconPresence(
            id: Self.beacon1, present: true, proximity: .near, distance: 1.23456, rssi: -67.26,
            lastSeen: Self.t0)
        #expect(
            presence.json == #"{"id":"ibeacon:74278BDA-B644-4520-8F0C-720EAF059935:1:1","state":"near","present":true,"#
                + #""proximity":"near","distance":1.23,"rssi":-67.3,"lastSeen":"2025-01-01T09:00:00.000Z"}"#)
        let gone = BeaconPresence(id: Self.beacon1, present: false, proximity: .unknown, lastSeen: Self.t0)
        #expect(gone.json.contains(#""state":"away","present":false"#))
        #expect(!gone.json.contains("distance"), "no distance is written for a beacon that left")
    }
}
