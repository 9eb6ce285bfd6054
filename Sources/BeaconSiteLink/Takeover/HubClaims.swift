import BeaconCore

/// Which alert events one hub of a share may deliver: those whose **claim** the broker holds.
///
/// The active hub claims each event it commits by adding its idempotency key to its own retained
/// list (`<base>/<hub>/claims`, QoS 1); it delivers the event only once the broker has
/// acknowledged a list holding the key (its PUBACK). From that moment every hub connected has
/// heard the claim, and a hub that connects later reads it from the retained list: a standby
/// drops what it holds of that event, and a standby that takes over claims only what nobody
/// claimed. A hub cut from the broker — killed, blackholed, or with the broker restarting — gets
/// no acknowledgement, so delivers nothing the others cannot know of.
///
/// A claim in flight when the connection is lost is uncertain: the broker may have it (and the
/// others may have dropped their copies) or not. The hub does not claim it again; it reads its
/// own retained list on the next connection and delivers what the broker holds as its own (see
/// ``heard(hub:keys:)``); what the broker does not hold stays held, for whichever hub is active
/// next. A hub's client is new on each connection, so a publication of a lost connection is never
/// sent again behind the hub's back.
///
/// A value type with no I/O: ``HubLease`` drives it from the broker's callbacks, and tests drive
/// it event by event.
package struct HubClaims: Sendable {
    /// A publication of the claims list, not yet acknowledged.
    private struct Publication {
        var connection: Int
        var messageID: Int32?
        /// The keys it claims for the first time.
        var keys: [String]
    }

    /// This hub's id.
    package let me: String
    /// Events of one alert, beacon and kind closer than this count as one (two hubs may decide
    /// the same dwell a cycle or two apart).
    package let matchWindow: Duration
    /// How far back a published list goes, from its newest claim.
    package static let window = Duration.seconds(600)
    /// The most keys a published list holds.
    package static let limit = 5000

    /// Keys this hub may deliver: its claims the broker holds.
    private(set) var mine: Set<String> = []
    /// ``mine`` in the order claimed, for the published list.
    private var own: [String] = []
    /// Claimed while active, not yet in a publication.
    private var unannounced: [String] = []
    private var inFlight: Publication?
    /// A whole list was asked for while one was in flight: the next publication is whole too.
    private var wantsAgain = false
    /// Acknowledgements that came before their publication's message id was noted.
    private var early: [(connection: Int, messageID: Int32)] = []
    /// The other hubs' lists, as last heard: every key, and those that read as alert events.
    private var others: [String: (keys: Set<String>, events: [CommittedEvent])] = [:]

    /// A hub with no claims yet.
    package init(me: String, matchWindow: Duration) {
        self.me = me
        self.matchWindow = matchWindow
    }

    /// Whether this hub may deliver the event with idempotency key `key`.
    package func isMine(_ key: String) -> Bool { mine.contains(key) }

    /// Whether another hub claimed the event `key`, or the same alert, beacon and kind within
    /// ``matchWindow`` of it.
    package func claimedByOthers(_ key: String) -> Bool {
        if others.values.contains(where: { $0.keys.contains(key) }) { return true }
        guard let event = CommittedEvent(key: key) else { return false }
        return others.values.contains { $0.events.contains { $0.matches(event, within: matchWindow) } }
    }

    /// How many keys this hub may deliver (its claims remembered).
    package var claimCount: Int { mine.count }

    /// Keys claimed and not yet acknowledged (in a publication, or waiting for one).
    package var unacknowledged: Int { unannounced.count + (inFlight?.keys.count ?? 0) }

    /// Claims `keys` (the active hub's commits, or what a hub taking over holds); the next
    /// publication carries them.
    package mutating func claim(_ keys: some Sequence<String>) {
        var waiting = Set(unannounced).union(inFlight?.keys ?? [])
        for key in keys where !mine.contains(key) && waiting.insert(key).inserted { unannounced.append(key) }
    }

    /// The list to publish on `connection` now, if any, and marks it in flight: all of this
    /// hub's claims of the last ``window`` (at most ``limit``) with the new ones. `nil` while a
    /// publication is in flight (its acknowledgement starts the next one) or when nothing is new.
    /// - Parameter again: publish the list even with nothing new, if there is one (a new
    ///   connection: a broker that restarted has lost its retained lists).
    package mutating func nextPublication(connection: Int, again: Bool = false) -> [String]? {
        guard inFlight == nil else {
            if again { wantsAgain = true }
            return nil
        }
        let again = again || wantsAgain
        guard (again && !own.isEmpty) || !unannounced.isEmpty else { return nil }
        wantsAgain = false
        prune(newest: unannounced.compactMap { CommittedEvent(key: $0)?.time }.max())
        let keys = unannounced
        unannounced = []
        inFlight = Publication(connection: connection, keys: keys)
        let listed = own.suffix(Self.limit - min(keys.count, Self.limit)) + keys.suffix(Self.limit)
        return Array(listed)
    }

    /// Notes the message id of the publication just made on `connection`: `nil` when the client
    /// could not send it (not connected), which puts its claims back.
    package mutating func published(messageID: Int32?, connection: Int) -> Bool {
        guard var publication = inFlight, publication.connection == connection else { return false }
        guard let messageID else {
            unannounced = publication.keys + unannounced
            inFlight = nil
            return false
        }
        publication.messageID = messageID
        inFlight = publication
        if let index = early.firstIndex(where: { $0 == (connection, messageID) }) {
            early.remove(at: index)
            return acknowledged(messageID: messageID, connection: connection)
        }
        return false
    }

    /// The broker acknowledged publication `messageID` of `connection`; returns whether claims
    /// became deliverable.
    package mutating func acknowledged(messageID: Int32, connection: Int) -> Bool {
        guard let publication = inFlight, publication.connection == connection else { return false }
        guard publication.messageID == messageID else {
            if publication.messageID == nil {
                early.append((connection, messageID))
                if early.count > 64 { early.removeFirst() }
            }
            return false
        }
        inFlight = nil
        return adopt(publication.keys)
    }

    /// The connection is gone: what was in flight is uncertain (see the type's documentation),
    /// and what was waiting is no longer claimed (the hub is not active any more).
    package mutating func connectionLost() {
        inFlight = nil
        unannounced = []
        early = []
        wantsAgain = false
    }

    /// This hub stepped down while connected: claims not yet published are dropped (they are
    /// held again); one in flight still counts when acknowledged (the broker has it).
    package mutating func steppedDown() {
        unannounced = []
    }

    /// A hub's retained list of claims, as the broker sent it; returns whether this hub's own
    /// claims grew (its list of an earlier run or connection: what the broker holds as its own).
    package mutating func heard(hub: String, keys: [String]) -> Bool {
        if hub == me { return adopt(keys) }
        others[hub] = (Set(keys), keys.compactMap(CommittedEvent.init(key:)))
        return false
    }

    /// Forgets own keys (older than the list's window) that nothing waits for any more.
    package mutating func forget(keeping pending: Set<String>) {
        let listed = Set(own)
        mine = mine.filter { listed.contains($0) || pending.contains($0) }
    }

    private mutating func adopt(_ keys: [String]) -> Bool {
        var grew = false
        for key in keys where mine.insert(key).inserted {
            own.append(key)
            grew = true
        }
        return grew
    }

    /// Drops from the list what is older than ``window`` before its newest claim (or `newest`,
    /// the newest of those about to join it).
    private mutating func prune(newest: Timestamp?) {
        let times = own.compactMap { CommittedEvent(key: $0)?.time } + (newest.map { [$0] } ?? [])
        guard let newest = times.max() else { return }
        let oldest = newest.advanced(by: .zero - Self.window)
        own.removeAll { key in CommittedEvent(key: key).map { $0.time < oldest } ?? false }
        if own.count > Self.limit { own.removeFirst(own.count - Self.limit) }
    }
}
