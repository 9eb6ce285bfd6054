#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Starts a detached POSIX thread: for work that blocks or runs long and must neither occupy the
/// Swift concurrency pool nor wait for one of its threads (the scanner's reads, the simulator's
/// prefetching).
package enum DedicatedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
                body.run()
                return nil
            }, context)
        precondition(result == 0, "pthread_create failed with \(result)")
        pthread_detach(thread)
    }
}
