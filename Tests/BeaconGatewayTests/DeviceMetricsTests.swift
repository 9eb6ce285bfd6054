import BeaconCore
import BeaconDevices
import BeaconPipeline
import Testing

@testable import BeaconGateway

/// The metrics of enrolled devices and people: addresses by outcome, held-back sightings and
/// corroborated arrivals as counters; people present and per room as gauges, a room that empties
/// reading 0.
@Suite("Device and people metrics")
struct DeviceMetricsTests {
    @Test("resolution counters grow by what happened; people per room follow the latest cycle")
    func collected() {
        let metrics = GatewayMetrics()
        var statistics = PipelineStatistics()
        var devices = PrivateAddressResolver.Statistics()
        devices.addressesHashed = 40
        devices.addressesResolved = 3
        devices.heldBack = 120
        devices.corroborated = 1
        statistics.deviceResolution = devices
        statistics.peoplePresent = 2
        statistics.peopleByRoom = ["office": 1, "kitchen": 1]
        metrics.collect(statistics, trackedBeacons: 2, backlogs: [:])
        devices.addressesHashed = 50
        statistics.deviceResolution = devices
        statistics.peoplePresent = 1
        statistics.peopleByRoom = ["office": 1]
        metrics.collect(statistics, trackedBeacons: 1, backlogs: [:])
        let lines = GatewayMetricsTests.lines(metrics)
        for expected in [
            #"beacond_devices_addresses_total{outcome="resolved"} 3"#, #"beacond_devices_addresses_total{outcome="stranger"} 47"#,
            "beacond_devices_sightings_held_back_total 120", "beacond_devices_arrivals_corroborated_total 1",
            "beacond_people_present 1.0", #"beacond_room_people{room="office"} 1.0"#, #"beacond_room_people{room="kitchen"} 0.0"#,
        ] {
            #expect(lines.contains(expected), "missing \(expected) in \(lines.sorted())")
        }
        let text = metrics.render()
        for family in [
            "beacond_devices_addresses_total", "beacond_devices_sightings_held_back_total",
            "beacond_devices_arrivals_corroborated_total", "beacond_people_present", "beacond_room_people",
        ] {
            #expect(text.contains("# HELP \(family) "), "no help for \(family)")
        }
    }
}
