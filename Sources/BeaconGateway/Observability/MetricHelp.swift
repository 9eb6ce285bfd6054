/// The `# HELP` line of each of the daemon's metrics, written into the exposition before the
/// family's `# TYPE` line (swift-metrics' factory registers metrics without help text, and the
/// registry refuses a second registration whose help differs).
enum MetricHelp {
    /// Help text by metric family name.
    static let texts: [String: String] = [
        "beacond_packets_received_total": "HCI packets (or capture records) received from the source.",
        "beacond_adverts_parsed_total": "Advertising reports parsed.",
        "beacond_adverts_malformed_total": "Packets or reports that could not be parsed, by kind.",
        "beacond_beacon_sightings_total": "Advertisements recognised as beacons (iBeacon, Eddystone, AltBeacon, layouts).",
        "beacond_ranging_cycles_total": "Ranging cycles completed.",
        "beacond_beacons_tracked": "Beacons ranged at the latest cycle.",
        "beacond_devices_addresses_total":
            "Resolvable private addresses hashed against the enrolled keys, by outcome (resolved, stranger).",
        "beacond_devices_sightings_held_back_total": "Sightings of an enrolled device held back until a second address.",
        "beacond_devices_arrivals_corroborated_total": "Enrolled devices' arrivals confirmed by a second address.",
        "beacond_people_present": "People (people:) with something they carry tracked.",
        "beacond_room_people": "People (people:) placed in each room.",
        "beacond_ranging_refused_beacons_total": "Beacons not tracked because the tracking table was full.",
        "beacond_ranging_refused_newcomers_total": "New beacons refused while the table was full of confirmed ones.",
        "beacond_ranging_capped_evictions_total": "Beacons evicted to make room under the tracking cap.",
        "beacond_alert_events_total": "Alert lifecycle events, by alert and event (created, delivered, cancelled, ...).",
        "beacond_external_events_total": "Named events posted to the daemon (POST /events/NAME), by name.",
        "beacond_sink_deliveries_total": "Events confirmed by a sink.",
        "beacond_sink_failures_total": "Delivery attempts a sink did not confirm.",
        "beacond_sink_delivery_seconds": "Time a sink took to confirm a delivery.",
        "beacond_alert_latency_seconds":
            "From the advertisement that decided an alert to its confirmed delivery, by alert and sink.",
        "beacond_alerts_unanswered": "Delivered alert instances waiting for an answer, by priority.",
        "beacond_remote_alerts_checks_total": "Checks of the remote alert document, by outcome.",
        "beacond_outbox_depth": "Events waiting in a sink's outbox.",
        "beacond_outbox_spilled_total": "Events kept among the dead letters without an attempt because the backlog was full.",
        "beacond_sink_dead_letters_total": "Events a sink gave up on (kept as dead letters).",
        "beacond_scanner_restarts_total": "Times the HCI scanner reopened its adapter.",
        "beacond_gateway_advertising": "1 while the adapter advertises the gateway's site identity, 0 when it was refused.",
        "beacond_site_reports_total": "Gateway reports fused by the hub.",
        "beacond_site_reports_refused_total": "Gateway reports the hub refused, by reason.",
        "beacond_site_beacons_refused_total": "Beacons the hub did not track, by cap.",
        "beacond_site_gateway_online": "1 while the gateway reports to the hub, 0 once it is offline.",
        "beacond_site_gateway_last_report_seconds": "Age of the gateway's latest report at the scrape.",
        "beacond_site_calibration_exponent": "Path-loss exponent of the calibration in use.",
        "beacond_site_calibration_receive_offset_db": "Receive offset of each gateway in the calibration in use.",
        "beacond_site_calibration_fixes": "Position fixes the latest calibration fit rested on.",
        "beacond_site_calibration_heldout_misfit_db": "Held-back misfit of the model in use and of the latest fit.",
        "beacond_site_calibration_fits_total": "Calibration fits, by verdict.",
    ]

    /// `exposition` with a `# HELP` line before each `# TYPE` line whose family has help text
    /// and none yet.
    static func annotate(_ exposition: String) -> String {
        var out = ""
        out.reserveCapacity(exposition.utf8.count + 2048)
        var previous: Substring = ""
        for line in exposition.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), !previous.hasPrefix("# HELP ") {
                let name = line.dropFirst(7).prefix { $0 != " " }
                if let help = texts[String(name)] { out += "# HELP \(name) \(help)\n" }
            }
            out += line
            out += "\n"
            previous = line
        }
        if out.hasSuffix("\n\n") { out.removeLast() }
        return out
    }
}
