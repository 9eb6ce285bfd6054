import BeaconCore

extension HomeAssistantDiscovery {
    /// One entity's discovery document (`object` as in `entities`). Without an `object_id`,
    /// Home Assistant names the entities after the device: `device_tracker.annas_badge`,
    /// `sensor.annas_badge_room`, `event.annas_badge_alert`.
    func document(_ beacon: NamedBeacon, _ object: String) -> String {
        let id = beacon.id
        var json = JSONWriter()
        json.object { doc in
            doc.member("unique_id", "\(uniqueID(id))_\(object)")
            doc.member("json_attributes_topic", stateTopic(id))
            // (Not the button's: Home Assistant 2024.3 left a button that shares the status
            // topic with the device's other entities unavailable; a press while the daemon is
            // away is answered by nothing, which the result topic shows.)
            if let statusTopic, object != "acknowledge" { doc.member("availability_topic", statusTopic) }
            switch object {
            case "tracker":
                doc.key("name")
                doc.null() // the device's name: device_tracker.<name>
                doc.member("state_topic", locationTopic(id))
                doc.member("source_type", "bluetooth_le")
                doc.member("payload_home", "home")
                doc.member("payload_not_home", "not_home")
                doc.member("icon", "mdi:account-badge")
            case "room":
                doc.member("name", "Room")
                doc.member("state_topic", stateTopic(id))
                doc.member(
                    "value_template",
                    "{{ value_json.room if value_json.room is defined else ('not_home' if not value_json.present else 'unknown') }}"
                )
                doc.member("icon", "mdi:door")
            case "distance":
                doc.member("name", "Distance")
                doc.member("state_topic", stateTopic(id))
                doc.member("value_template", "{{ value_json.distance if value_json.distance is not none else None }}")
                doc.member("unit_of_measurement", "m")
                doc.member("device_class", "distance")
                doc.member("state_class", "measurement")
            case "position":
                doc.member("name", "Position")
                doc.member("state_topic", stateTopic(id))
                doc.member(
                    "value_template",
                    "{{ '%.1f, %.1f' | format(value_json.x, value_json.y) if value_json.x is defined else None }}")
                doc.member("icon", "mdi:map-marker")
            case "proximity":
                doc.member("name", "Proximity")
                doc.member("state_topic", stateTopic(id))
                doc.member("value_template", "{{ value_json.state }}")
                doc.member("icon", "mdi:bluetooth")
            case "acknowledge":
                // A press answers the beacon's latest unanswered alert (MQTTCommandService).
                doc.member("name", "Acknowledge")
                doc.member("command_topic", "\(commandTopic ?? "")/acknowledge")
                var press = JSONWriter()
                press.object { payload in
                    payload.member("beacon", id.description)
                    payload.member("by", "home-assistant")
                    if let token = commandToken { payload.member("token", token) }
                }
                doc.member("payload_press", press.string)
                doc.member("icon", "mdi:check-circle")
            default: // "alert"
                doc.member("name", "Alert")
                doc.member("state_topic", alertTopic(id))
                doc.key("event_types")
                doc.array { array in for alert in alertIDs { array.value(alert) } }
                doc.member("icon", "mdi:bell-ring")
            }
            writeDevice(
                to: &doc, identifier: uniqueID(id), name: beacon.name, model: "BLE beacon (\(id.kind.name))",
                serial: id.description)
        }
        return json.string
    }
}
