import BeaconCore
import BeaconSiteLink

/// A source whose beacon advertisements are also published as an ESPresense node publishes
/// them (`site.publish: espresense`), before the pipeline sees them.
struct ESPresensePublishingSource: AdvertisementSource {
    let source: any AdvertisementSource
    let publisher: ESPresenseNodePublisher

    var name: String { source.name }

    func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
        defer { publisher.close() }
        try await source.run { batch in
            batch.forEachPacket { record, bytes in publisher.publish(packet: bytes, at: record.timestamp) }
            try await deliver(batch)
        }
    }
}
