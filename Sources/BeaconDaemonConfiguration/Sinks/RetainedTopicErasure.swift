import BeaconCore
import BeaconMQTT

/// What `beacond forget` erases at an MQTT sink's broker: the retained topics the daemon
/// publishes about a beacon or a person — their presence state, and with Home Assistant
/// discovery their entities' documents and states — each cleared with an empty retained
/// payload the broker acknowledges, so Home Assistant removes the entities.
public struct RetainedTopicErasure: Sendable {
    /// The sink whose broker and topics these are.
    public let settings: MQTTSinkSettings
    /// The topics to clear, in order.
    public let topics: [String]

    /// The topics of `beacons` and of the people named `people` that a daemon with `settings`
    /// publishes retained.
    public init(beacons: [BeaconID], people: [String], settings: MQTTSinkSettings) {
        self.settings = settings
        var topics: [String] = []
        let discovery = settings.homeAssistant
        for id in beacons {
            if settings.beaconState { topics.append("\(settings.beaconTopicPrefix)/\(id)") }
            if let discovery {
                topics.append(discovery.locationTopic(id))
                topics += discovery.allConfigTopics(id)
            }
        }
        if let discovery {
            for person in people {
                topics.append(discovery.personDocument(person).topic)
                topics.append(discovery.personLocationTopic(person))
            }
        }
        self.topics = topics
    }

    /// Removes `beacons` and `people` from the sink's Home Assistant ledger (the file beside the
    /// state file that remembers what was announced); returns how many entries went.
    public static func forgetInLedger(_ beacons: [BeaconID], people: [String] = [], settings: MQTTSinkSettings) throws
        -> Int
    {
        guard let path = settings.homeAssistantLedgerPath else { return 0 }
        let ledger = HomeAssistantLedger(path: path)
        let announced = ledger.read()
        let keptBeacons = announced.beacons.filter { !beacons.contains($0) }
        let keptPeople = announced.people.filter { !people.contains($0) }
        let removed = announced.beacons.count - keptBeacons.count + announced.people.count - keptPeople.count
        guard removed > 0 else { return 0 }
        try ledger.write(beacons: keptBeacons, people: keptPeople)
        return removed
    }

    /// Connects to the sink's broker (as a client of its own, without the sink's status topic, so
    /// the daemon's availability is not touched) and clears every topic, each acknowledged.
    /// Returns how many were cleared.
    /// - Throws: `MQTTSinkError` (BeaconMQTT) when the broker cannot be reached within the sink's timeout
    ///   or refuses; what was cleared before stays cleared.
    public func erase() async throws -> Int {
        guard !topics.isEmpty else { return 0 }
        var options = settings.connection
        options.statusTopic = nil
        let client = try MQTTSink(
            host: settings.host, port: settings.port, topic: "\(settings.beaconTopicPrefix)/forget", options: options,
            clientID: "beacond-forget-\(settings.gateway)", timeout: settings.timeout)
        var cleared = 0
        do {
            for topic in topics {
                try await client.clearRetained(topic: topic)
                cleared += 1
            }
        } catch {
            await client.close()
            throw error
        }
        await client.close()
        return cleared
    }
}
