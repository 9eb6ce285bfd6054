import ServiceLifecycle

/// Runs `operation` until the service group's graceful shutdown cancels it; the cancellation
/// that the shutdown (or the group) causes ends the service normally instead of as a failure.
func cancelledAtShutdown(_ operation: @escaping @Sendable () async throws -> Void) async throws {
    do {
        try await cancelWhenGracefulShutdown(operation)
    } catch is CancellationError {
        return
    }
}
