import BeaconCore

/// A live source that a test feeds: each batch it ``push(_:)``es is delivered, in order; it runs
/// until ``end()`` or until its task is cancelled, like a radio.
public struct PushedSource: AdvertisementSource {
    private let batches: AsyncStream<PacketBatch>
    private let continuation: AsyncStream<PacketBatch>.Continuation

    public init() {
        (batches, continuation) = AsyncStream.makeStream(of: PacketBatch.self)
    }

    public var name: String { "pushed" }

    /// Delivers `batch` next.
    public func push(_ batch: PacketBatch) { continuation.yield(batch) }

    /// Ends the source after what was pushed.
    public func end() { continuation.finish() }

    public func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
        for await batch in batches { try await deliver(batch) }
    }
}
