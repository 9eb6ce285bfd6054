import BeaconCore
import BeaconDevices
import BeaconRanging
import BeaconWire

/// One gateway's front end: decodes packets (BeaconWire) and ranges the beacons they carry once
/// per cycle (BeaconRanging), calling back with each cycle's update.
///
/// Time comes only from the packets — every packet's, beacon or not — and from
/// `advance(to:onUpdate:)`. Nothing is allocated per packet: the batch is borrowed, its
/// sightings go through a buffer kept between batches, and updates are lent to the callback
/// (built in the ranging loop's reused buffers).
///
/// It belongs to one task; it is not `Sendable`.
package final class PacketRanging {
    private var loop: RangingLoop
    /// Vendors' frames tried after the built-in ones.
    package let layouts: [BeaconLayout]
    /// Enrolled phones and watches, whose private addresses it resolves; `nil` when none are.
    /// Touched only by the decoding closure, never re-entrantly (see below).
    @exclusivity(unchecked) package private(set) var resolver: PrivateAddressResolver?
    /// The ranging cycle's length (kept here: the ranging loop is busy while it calls back).
    package let cycleLength: Duration
    private let decoder = CaptureDecoder()
    // The three properties the decoding closure touches per packet are never accessed
    // re-entrantly (nothing the closure calls reaches this object), so their dynamic exclusivity
    // checks are switched off: two or three per packet cost more than the counting itself.
    @exclusivity(unchecked) private var captureSummary = CaptureSummary()
    /// A batch's sightings, handed to the ranging loop together (it overlaps their cache misses).
    @exclusivity(unchecked) private var batchSightings: [BeaconSighting] = []
    /// Packets, advertisements, sightings and malformed packets so far (the ranging loop keeps
    /// its own counters, added by `contribute(to:)`).
    @exclusivity(unchecked) package private(set) var counters = PipelineStatistics()

    /// A front end ranging with `configuration`, decoding `layouts` after the built-in frames and
    /// resolving the private addresses of `devices`.
    /// - Throws: ``PipelineError/ranging(_:)`` when the configuration cannot work.
    package init(
        configuration: RangingConfiguration = RangingConfiguration(), layouts: [BeaconLayout] = [],
        devices: [EnrolledDevice] = []
    ) throws(PipelineError) {
        do {
            loop = try RangingLoop(configuration: configuration)
        } catch {
            throw .ranging(error.description)
        }
        self.layouts = layouts
        resolver = devices.isEmpty ? nil : PrivateAddressResolver(devices: devices)
        cycleLength = configuration.cycleLength
    }

    /// The ranging configuration.
    package var configuration: RangingConfiguration { loop.configuration }

    /// Decodes a batch and ranges its sightings, calling `onUpdate` with every cycle they (and
    /// the batch's newest packet, beacon or not) complete; returns that newest packet's time.
    @discardableResult
    package func ingest(
        _ batch: borrowing PacketBatch, onUpdate: (RangingUpdate) throws -> Void
    ) rethrows -> Timestamp? {
        counters.packets += batch.count
        var index = 0
        var newestPacket: Timestamp?
        batch.forEachPacket { record, bytes in
            if newestPacket.map({ record.timestamp > $0 }) ?? true { newestPacket = record.timestamp }
            let captureRecord = CaptureRecord(
                index: index, offset: Int(record.offset), timestamp: record.timestamp,
                linkType: record.linkType, direction: .received, bytes: bytes)
            index += 1
            decoder.decode(captureRecord, summary: &captureSummary) { item in
                switch item {
                case .advertisement(let advertisement):
                    counters.advertisements += 1
                    if let sighting = BeaconSighting(
                        report: advertisement.report, timestamp: advertisement.timestamp,
                        layouts: layouts)
                    {
                        counters.sightings += 1
                        batchSightings.append(sighting)
                    } else if resolver != nil,
                        let sighting = resolver?.sighting(advertisement.report, at: advertisement.timestamp)
                    {
                        counters.sightings += 1
                        batchSightings.append(sighting)
                    }
                case .error(let error):
                    counters.malformedByKind[error.kindName, default: 0] += 1
                }
            }
        }
        defer { batchSightings.removeAll(keepingCapacity: true) }
        try batchSightings.withUnsafeBufferPointer { sightings in
            try loop.ingest(contentsOf: sightings, onUpdate: onUpdate)
        }
        // Every packet is a clock: packets of other devices end cycles too.
        if let newestPacket { try loop.advance(to: newestPacket, onUpdate: onUpdate) }
        return newestPacket
    }

    /// Ranges one sighting (for sources that decode themselves, and for tests), calling
    /// `onUpdate` with every cycle that ended before it.
    package func ingest(_ sighting: BeaconSighting, onUpdate: (RangingUpdate) throws -> Void) rethrows {
        try loop.ingest(sighting, onUpdate: onUpdate)
    }

    /// Closes every cycle that ended by `now`, calling `onUpdate` with each, in order.
    package func advance(to now: Timestamp, onUpdate: (RangingUpdate) throws -> Void) rethrows {
        try loop.advance(to: now, onUpdate: onUpdate)
    }
}

extension PacketRanging: PipelineFrontEnd {
    package var lateness: Duration { .zero }
    package var cycleClock: Timestamp? { loop.currentCycleStart }
    package var trackedCount: Int { loop.trackedCount }
    package var latestUpdate: RangingUpdate { loop.latestUpdate }
    package var regionIDs: [String] { loop.configuration.regions.map(\.id) }

    package func unknownRegionMessage(_ region: String) -> String {
        listingRegions(after: "region '\(region)' is not under ranging.regions")
    }

    package func contribute(to statistics: inout PipelineStatistics) {
        statistics.packets = counters.packets
        statistics.advertisements = counters.advertisements
        statistics.sightings = counters.sightings
        statistics.malformedByKind = counters.malformedByKind
        statistics.refusedBeacons = loop.refusedBeacons
        statistics.refusedNewcomers = loop.refusedNewcomers
        statistics.cappedEvictions = loop.cappedEvictions
        statistics.rangingReservedBytes = loop.reservedHeapBytes
        statistics.deviceResolution = resolver?.statistics
    }

    package func contribute(to inspection: inout PipelineInspection) {
        inspection.beacons = loop.latestUpdate.beacons
    }
}
