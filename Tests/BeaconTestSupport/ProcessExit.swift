import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Blocks the calling thread until `process` has exited, looking every 2 ms.
///
/// Not `Process.waitUntilExit()`: on Linux, Foundation's spins its run loop for the whole wait, a
/// core busy per waiting test (a site test's 40 s walk cost 40 s of CPU that the rest of the run
/// did not have). This costs nothing while it waits. Call it on a thread of its own
/// (``waitForExit(_:)`` does), never on the cooperative pool (``expectOffCooperativePool(_:sourceLocation:)``
/// records an issue if it is).
public func blockUntilExit(_ process: Process, sourceLocation: SourceLocation = #_sourceLocation) {
    expectOffCooperativePool("waiting for a child process's exit", sourceLocation: sourceLocation)
    while process.isRunning { usleep(2_000) }
}
