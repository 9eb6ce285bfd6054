/// Delivers every event to several sinks: confirmed only when all of them confirm (so a retry
/// may repeat the event to the sinks that had accepted it — at least once, never lost).
///
/// The gateway gives each sink its own outbox instead, so that a slow sink never holds back
/// the others; this is for composing sinks in tests and embedders.
public struct MultiplexSink: AlertSink {
    /// The sinks, in delivery order.
    public let sinks: [any AlertSink]

    /// Creates a sink over `sinks`.
    public init(_ sinks: [any AlertSink]) {
        self.sinks = sinks
    }

    /// The names of the sinks, joined.
    public var name: String { "multiplex(" + sinks.map(\.name).joined(separator: ", ") + ")" }

    /// Delivers to every sink in order; the first refusal is thrown after all were tried.
    public func deliver(_ event: OutboundEvent) async throws {
        var firstError: (any Error)?
        for sink in sinks {
            do { try await sink.deliver(event) } catch { if firstError == nil { firstError = error } }
        }
        if let firstError { throw firstError }
    }

    /// Flushes every sink; the first failure is thrown after all were flushed.
    public func flush() async throws {
        var firstError: (any Error)?
        for sink in sinks {
            do { try await sink.flush() } catch { if firstError == nil { firstError = error } }
        }
        if let firstError { throw firstError }
    }
}
