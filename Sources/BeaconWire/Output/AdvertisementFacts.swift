/// What one pass over a report's AD structures finds, for the output writers: the first iBeacon,
/// AltBeacon and Eddystone frames, the local name and the Tx Power Level. Views point into the
/// report's data; nothing is allocated.
public struct AdvertisementFacts {
    /// The first iBeacon frame.
    public var iBeacon: IBeaconFrame?
    /// The first AltBeacon frame.
    public var altBeacon: AltBeaconFrame?
    /// The first Eddystone frame.
    public var eddystone: EddystoneFrame?
    /// The local name (complete preferred over shortened).
    public var localName: LocalName?
    /// The Tx Power Level AD structure, dBm.
    public var txPowerLevel: Int8?
    /// Whether the AD structures ran past the end of the data (the ones before were read).
    public var isMalformed = false

    /// Reads the AD structures of `data`.
    public init(data: UnsafeRawBufferPointer) {
        var structures = ADStructureIterator(data)
        while true {
            let next: ADStructure?
            do { next = try structures.next() } catch {
                isMalformed = true
                break
            }
            guard let structure = next else { break }
            switch structure.element {
            case .iBeacon(let frame) where iBeacon == nil: iBeacon = frame
            case .altBeacon(let frame) where altBeacon == nil: altBeacon = frame
            case .eddystone(let frame) where eddystone == nil: eddystone = frame
            case .localName(let name) where localName == nil || (name.isComplete && localName?.isComplete == false):
                localName = name
            case .txPowerLevel(let power) where txPowerLevel == nil: txPowerLevel = power
            default: break
            }
        }
    }

    /// Whether the data holds a frame of `family`.
    public func contains(_ family: BeaconFamily) -> Bool {
        switch family {
        case .iBeacon: iBeacon != nil
        case .altBeacon: altBeacon != nil
        case .eddystone: eddystone != nil
        }
    }
}
