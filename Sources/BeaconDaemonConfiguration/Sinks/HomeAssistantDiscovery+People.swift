import BeaconCore

extension HomeAssistantDiscovery {
    /// A name as one topic level and part of a unique id: lowercase, `[a-z0-9_-]`, others `_`.
    static func slug(_ name: String) -> String {
        String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" })
    }

    /// `beacond/<gateway>`: the beacon topics' parent, under which people and rooms go.
    var baseTopic: String {
        beaconTopicPrefix.hasSuffix("/beacons") ? String(beaconTopicPrefix.dropLast("/beacons".count)) : beaconTopicPrefix
    }

    /// `beacond/<gateway>/people/<slug>/location`: a person's device tracker state (retained): their
    /// room, `home` when present without one, `not_home`.
    public func personLocationTopic(_ person: String) -> String { "\(baseTopic)/people/\(Self.slug(person))/location" }

    /// `beacond/<gateway>/rooms/<slug>/people`: how many people are in a room (retained).
    public func roomPeopleTopic(_ room: String) -> String { "\(baseTopic)/rooms/\(Self.slug(room))/people" }

    /// The discovery topic and document of a person's device tracker: one Home Assistant device per
    /// person (`device_tracker.<name>`), whose state is the room they are in.
    public func personDocument(_ person: String) -> (topic: String, payload: String) {
        let unique = "beacond_\(Self.slug(gateway))_person_\(Self.slug(person))"
        var json = JSONWriter()
        json.object { doc in
            doc.member("unique_id", unique)
            if let statusTopic { doc.member("availability_topic", statusTopic) }
            doc.key("name")
            doc.null()
            doc.member("state_topic", personLocationTopic(person))
            doc.member("source_type", "bluetooth_le")
            doc.member("payload_home", "home")
            doc.member("payload_not_home", "not_home")
            doc.member("icon", "mdi:account")
            writeDevice(to: &doc, identifier: unique, name: person, model: "Person (people:)")
        }
        return ("\(prefix)/device_tracker/\(unique)/tracker/config", json.string)
    }

    /// A discovery document's `device`: one Home Assistant device per beacon, person or room,
    /// reached through the gateway's (or hub's) own device.
    func writeDevice(to doc: inout JSONWriter, identifier: String, name: String, model: String, serial: String? = nil) {
        doc.key("device")
        doc.object { device in
            device.key("identifiers")
            device.array { $0.value(identifier) }
            device.member("name", name)
            device.member("manufacturer", "beacond")
            device.member("model", model)
            device.member("serial_number", serial)
            device.member("via_device", "beacond_\(gateway)")
        }
    }

    /// The discovery topic and document of a room's occupancy sensor (`sensor.<room>_people`): the
    /// number of people in it, on the hub's device.
    public func roomDocument(_ room: String) -> (topic: String, payload: String) {
        let unique = "beacond_\(Self.slug(gateway))_room_\(Self.slug(room))"
        var json = JSONWriter()
        json.object { doc in
            doc.member("unique_id", "\(unique)_people")
            if let statusTopic { doc.member("availability_topic", statusTopic) }
            doc.member("name", "People")
            doc.member("state_topic", roomPeopleTopic(room))
            doc.member("state_class", "measurement")
            doc.member("unit_of_measurement", "people")
            doc.member("icon", "mdi:account-group")
            writeDevice(to: &doc, identifier: unique, name: room, model: "Room")
        }
        return ("\(prefix)/sensor/\(unique)/people/config", json.string)
    }
}
