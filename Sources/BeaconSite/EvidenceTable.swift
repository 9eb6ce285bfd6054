/// What every gateway has said of every tracked beacon lately: ``EvidenceSlot/perGateway`` slots
/// per beacon and gateway, indexed by the cycle's number modulo that, so that records of the
/// cycles still open and of the last closed one live side by side. The hub's evidence stage:
/// filing writes it, the room rule, the positions and the observers read it.
///
/// Rows follow the hub's beacon order (``FusedBeaconTable``'s rows), a row of `gatewayCount ×
/// perGateway` slots each; nothing is allocated once the rows exist.
struct EvidenceTable {
    /// The slots, row after row.
    private(set) var slots: [EvidenceSlot] = []
    let gatewayCount: Int
    /// How many cycles back a slot still counts as evidence (``SiteFusionConfiguration/staleness``).
    let staleCycles: Int64

    /// A table for `gatewayCount` gateways whose evidence counts for `staleCycles` cycles.
    init(gatewayCount: Int, staleCycles: Int64) {
        self.gatewayCount = gatewayCount
        self.staleCycles = staleCycles
    }

    /// Slots per beacon.
    var rowWidth: Int { gatewayCount * EvidenceSlot.perGateway }

    /// The slot of (`b`, `g`) that a record of `cycle` goes into.
    @inline(__always)
    func index(beacon b: Int, gateway g: Int, cycle: Int64) -> Int {
        (b * gatewayCount + g) * EvidenceSlot.perGateway + Int(cycle & EvidenceSlot.mask)
    }

    /// The slot at `index`.
    @inline(__always)
    subscript(index: Int) -> EvidenceSlot { slots[index] }

    /// The gateway a slot index belongs to.
    @inline(__always)
    func gateway(ofSlot index: Int) -> Int { (index / EvidenceSlot.perGateway) % gatewayCount }

    /// Adds an empty row for a new beacon (the last).
    mutating func appendBeacon() {
        slots.append(contentsOf: repeatElement(EvidenceSlot(), count: rowWidth))
    }

    /// The last beacon's row takes the place of `b`'s (the hub evicted `b`); the last row goes.
    mutating func moveLast(to b: Int) {
        let width = rowWidth
        let last = slots.count / width - 1
        if b != last {
            for i in 0..<width { slots[b * width + i] = slots[last * width + i] }
        }
        slots.removeLast(width)
    }

    /// Files `slot` at `index` unless a newer cycle's record holds it.
    @inline(__always)
    mutating func file(_ slot: EvidenceSlot, at index: Int) {
        guard slots[index].cycle <= slot.cycle else { return } // a newer record holds the slot
        slots[index] = slot
    }

    /// The newest slot of (`b`, `g`) for `cycle` or up to ``staleCycles`` before it.
    @inline(__always)
    func newestSlot(beacon b: Int, gateway g: Int, cycle: Int64) -> Int? {
        let base = (b * gatewayCount + g) * EvidenceSlot.perGateway
        var best: Int?
        var bestCycle = cycle - staleCycles
        for i in 0..<EvidenceSlot.perGateway {
            let c = slots[base + i].cycle
            if c > bestCycle && c <= cycle {
                best = base + i
                bestCycle = c
            }
        }
        return best
    }

    /// The mean RSSI of a gateway's sightings of beacon `b` in cycles `cycle − 1` and `cycle`,
    /// weighted by their counts; `nil` when it heard nothing in them.
    @inline(__always)
    func recentMean(beacon b: Int, gateway g: Int, cycle: Int64) -> Float? {
        let base = (b * gatewayCount + g) * EvidenceSlot.perGateway
        var sum: Float = 0
        var count: Float = 0
        for i in 0..<EvidenceSlot.perGateway {
            let slot = slots[base + i]
            guard slot.cycle == cycle || slot.cycle == cycle - 1, slot.samples > 0, !slot.mean.isNaN else { continue }
            sum += Float(slot.samples) * slot.mean
            count += Float(slot.samples)
        }
        return count > 0 ? sum / count : nil
    }

    /// Calls `body` with each gateway's evidence of beacon `b` in `cycle`: its index and RSSI
    /// (offset applied) — the cycle's mean when it heard the beacon in that cycle, else its latest
    /// filtered value (a gateway within its grace), `nil` when the record has none.
    func forEachEvidence(ofBeacon b: Int, cycle: Int64, _ body: (_ gateway: Int, _ rssi: Double?) -> Void) {
        for g in 0..<gatewayCount {
            guard let s = newestSlot(beacon: b, gateway: g, cycle: cycle) else { continue }
            let slot = slots[s]
            let rssi = slot.cycle == cycle && slot.samples > 0 && !slot.mean.isNaN ? slot.mean : slot.rssi
            body(g, rssi.isNaN ? nil : Double(rssi))
        }
    }
}
