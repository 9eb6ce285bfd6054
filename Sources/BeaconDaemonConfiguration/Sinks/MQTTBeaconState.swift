import BeaconCore
import BeaconDevices
import BeaconMQTT
import BeaconPipeline
import Synchronization

/// Publishes each beacon's presence, retained, to `beacond/<gateway>/beacons/<id>` through an
/// MQTT sink's connection and, with Home Assistant discovery on, what Home Assistant shows of
/// the **named** beacons (``HomeAssistantDiscovery``); on ``finish()`` it closes the connection
/// with `offline` on the status topic.
///
/// Presence is state, not an event: only its latest value matters, so it does not go through
/// the outbox; the sink republishes the latest payload of every topic after a reconnection.
/// What it keeps is bounded by the named beacons and the beacons present: an unnamed beacon's
/// topic is cleared (an empty retained payload) when it leaves, or at an orderly stop if it is
/// still there, and an unnamed beacon never gets a Home Assistant entity, so a flood of made-up
/// ids leaves nothing behind.
final class MQTTBeaconState: BeaconStateObserver {
    let sink: MQTTSink
    let settings: MQTTSinkSettings
    let discovery: HomeAssistantDiscovery?
    /// What the announcement had to say (entities removed, a ledger that cannot be written).
    let notes: [String]
    /// The people's places (`people:`, with discovery on), what was last published of them, and the
    /// rooms announced.
    private let people: Mutex<PeopleState>

    private struct PeopleState {
        var places: PeoplePlaces
        var published: [String: String] = [:]
        var counts: [String: Int] = [:]
        var announcedRooms: Set<String> = []
    }

    init(sink: MQTTSink, settings: MQTTSinkSettings) {
        self.sink = sink
        self.settings = settings
        discovery = settings.beaconState ? settings.homeAssistant : nil
        var notes: [String] = []
        if let discovery { Self.announce(discovery, settings: settings, sink: sink, notes: &notes) }
        self.notes = notes
        var state = PeopleState(places: PeoplePlaces(people: discovery == nil ? [] : settings.people))
        if let discovery, !settings.people.isEmpty {
            for person in settings.people {
                let document = discovery.personDocument(person.name)
                sink.publishRetained(topic: document.topic, payload: document.payload)
                sink.publishRetained(topic: discovery.personLocationTopic(person.name), payload: "not_home")
                state.published[person.name] = "not_home"
            }
            for room in settings.rooms {
                let document = discovery.roomDocument(room)
                sink.publishRetained(topic: document.topic, payload: document.payload)
                sink.publishRetained(topic: discovery.roomPeopleTopic(room), payload: "0")
                state.counts[room] = 0
                state.announcedRooms.insert(room)
            }
        }
        people = Mutex(state)
    }

    /// Publishes the discovery documents of every named beacon, and removes the entities of the
    /// beacons the ledger remembers that are no longer named.
    private static func announce(
        _ discovery: HomeAssistantDiscovery, settings: MQTTSinkSettings, sink: MQTTSink, notes: inout [String]
    ) {
        let named = settings.beacons.beacons
        if let path = settings.homeAssistantLedgerPath {
            let ledger = HomeAssistantLedger(path: path)
            let announced = ledger.read()
            for id in announced.beacons where settings.beacons[id] == nil {
                remove(id, discovery: discovery, settings: settings, sink: sink)
                notes.append("homeAssistant: \(id) is no longer named; its entities are removed")
            }
            for person in announced.people where !settings.people.contains(where: { $0.name == person }) {
                sink.publishRetained(topic: discovery.personDocument(person).topic, payload: "")
                sink.publishRetained(topic: discovery.personLocationTopic(person), payload: "")
                notes.append("homeAssistant: \(person) is no longer in people:; their tracker is removed")
            }
            do {
                try ledger.write(beacons: named.map(\.id), people: settings.people.map(\.name))
            } catch {
                notes.append("homeAssistant: cannot write \(path) (\(error)); a beacon un-named later keeps its entities")
            }
        }
        for beacon in named {
            for (topic, payload) in discovery.documents(for: beacon) { sink.publishRetained(topic: topic, payload: payload) }
        }
    }

    /// Clears a beacon's entities and state topics (empty retained payloads).
    static func remove(_ id: BeaconID, discovery: HomeAssistantDiscovery, settings: MQTTSinkSettings, sink: MQTTSink) {
        for topic in discovery.allConfigTopics(id) { sink.publishRetained(topic: topic, payload: "") }
        sink.publishRetained(topic: discovery.locationTopic(id), payload: "")
        sink.publishRetained(topic: discovery.stateTopic(id), payload: "")
    }

    func observe(_ changes: [BeaconPresence]) {
        guard settings.beaconState else { return }
        for change in changes {
            let named = settings.beacons[change.id]
            guard named != nil || change.present else {
                // An unnamed beacon that left: nothing of it is kept.
                sink.publishRetained(topic: stateTopic(change.id), payload: "")
                continue
            }
            sink.publishRetained(topic: stateTopic(change.id), payload: change.json(named: named))
            guard let named, let discovery else { continue }
            sink.publishRetained(topic: discovery.locationTopic(change.id), payload: discovery.location(change))
            if let message = discovery.roomMessage(change, name: named.name) {
                sink.publishTransient(topic: message.topic, payload: message.payload)
            }
        }
        if let discovery, !settings.people.isEmpty { publishPeople(changes, discovery: discovery) }
    }

    /// Each person's device tracker (their room, `home`, `not_home`) and each room's count of
    /// people, published when they change.
    private func publishPeople(_ changes: [BeaconPresence], discovery: HomeAssistantDiscovery) {
        people.withLock { state in
            var touched = false
            for change in changes {
                let room = settings.onHub ? change.room : nil
                if state.places.apply(member: change.id, tracked: change.present, room: room, at: change.lastSeen) != nil {
                    touched = true
                }
            }
            guard touched else { return }
            for place in state.places.places {
                let location = place.room ?? (place.present ? "home" : "not_home")
                guard state.published[place.person] != location else { continue }
                state.published[place.person] = location
                sink.publishRetained(topic: discovery.personLocationTopic(place.person), payload: location)
            }
            let occupancy = state.places.occupancy
            for room in Set(occupancy.keys).union(state.counts.keys) {
                let count = occupancy[room]?.count ?? 0
                guard state.counts[room] != count else { continue }
                if !state.announcedRooms.contains(room) {
                    let document = discovery.roomDocument(room)
                    sink.publishRetained(topic: document.topic, payload: document.payload)
                    state.announcedRooms.insert(room)
                }
                state.counts[room] = count
                sink.publishRetained(topic: discovery.roomPeopleTopic(room), payload: "\(count)")
            }
        }
    }

    /// How many retained topics its sink keeps (bounded by the named and the present beacons).
    var retainedTopicCount: Int { sink.retainedTopicCount }

    /// Clears the state topics of the unnamed beacons still present (a retained topic would
    /// outlive the daemon: after a flood of made-up ids, one per id), then closes the connection
    /// (which waits for the broker to have taken everything published before it).
    func finish() async {
        if settings.beaconState {
            let prefix = settings.beaconTopicPrefix + "/"
            for topic in sink.retainedTopics where topic.hasPrefix(prefix) {
                let rest = topic.dropFirst(prefix.count)
                guard !rest.contains("/"), let id = BeaconID(String(rest)), settings.beacons[id] == nil else { continue }
                sink.publishRetained(topic: topic, payload: "")
            }
        }
        await sink.close()
    }

    /// `beacond/<gateway>/beacons/ibeacon:UUID:major:minor`.
    func stateTopic(_ id: BeaconID) -> String { "\(settings.beaconTopicPrefix)/\(id)" }
}
