import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Turns SIGINT/SIGTERM into a call (e.g. cancelling the scan task) instead of killing the
/// process, so that the scanner can disable scanning and restore its filter first.
final class SignalCanceller {
    private let sources: [any DispatchSourceSignal]

    /// Ignores `signals`' default action and calls `handler` when one arrives.
    init(signals: [Int32], handler: @escaping @Sendable () -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    /// Stops listening and restores the default actions.
    func cancel() {
        for source in sources {
            source.cancel()
            signal(Int32(source.handle), SIG_DFL)
        }
    }
}
