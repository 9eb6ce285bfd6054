/// The named beacons of a configuration, looked up by identity: where alert events, presence
/// lines, the status page and Home Assistant find a beacon's name and tags. A beacon it does not
/// hold is unknown: still tracked and listed, just unnamed.
public struct BeaconDirectory: Hashable, Sendable {
    /// The named beacons, in configuration order.
    public let beacons: [NamedBeacon]
    /// Other words for identities, which ``identity(named:)`` takes too: with pseudonyms, the
    /// names the configuration wrote (`ada-phone`, `Ada's phone`), which appear in no output.
    public let aliases: [String: BeaconID]
    private let byID: [BeaconID: Int]

    /// A directory of `beacons`; for an identity given twice the first entry counts (the
    /// configuration reader refuses duplicates before this).
    public init(_ beacons: [NamedBeacon] = [], aliases: [String: BeaconID] = [:]) {
        self.aliases = aliases
        var byID: [BeaconID: Int] = [:]
        var kept: [NamedBeacon] = []
        for beacon in beacons where byID[beacon.id] == nil {
            byID[beacon.id] = kept.count
            kept.append(beacon)
        }
        self.beacons = kept
        self.byID = byID
    }

    /// No beacon is named.
    public static let empty = BeaconDirectory()

    /// True when no beacon is named.
    public var isEmpty: Bool { beacons.isEmpty }

    /// The named beacon with identity `id`, or `nil` for an unknown one.
    public subscript(id: BeaconID) -> NamedBeacon? { byID[id].map { beacons[$0] } }

    /// The identity `text` names here: an enrolled device's id (`ada-phone`), a named beacon's
    /// name, or a beacon id (`ibeacon:…`; a `device:` id only when it is named here), or an alias; `nil` else.
    public func identity(named text: String) -> BeaconID? {
        if let alias = aliases[text] { return alias }
        if let device = BeaconID.device(named: text), self[device] != nil { return device }
        if let named = beacons.first(where: { $0.name == text }) { return named.id }
        guard let id = BeaconID(text), id.kind != .device || self[id] != nil else { return nil }
        return id
    }

    /// The identities of the beacons tagged `tag`.
    public func ids(tagged tag: String) -> Set<BeaconID> {
        Set(beacons.lazy.filter { $0.tags.contains(tag) }.map(\.id))
    }

    /// Every tag some beacon has, sorted.
    public var tags: [String] { Set(beacons.flatMap(\.tags)).sorted() }

    /// `event` with the name and tags of its beacon, when the beacon is named.
    public func labelled(_ event: AlertEvent) -> AlertEvent {
        guard let named = self[event.beacon] else { return event }
        var event = event
        event.beaconName = named.name
        event.beaconTags = named.tags
        return event
    }
}
