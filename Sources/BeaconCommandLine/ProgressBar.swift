import BeaconCore
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on stderr: virtual time done and reports per second — or, for work
/// that is not timed (``update(fraction:label:)``), its share done and what it is.
struct ProgressBar {
    let total: Duration
    let enabled: Bool
    /// What the rate counts (`reports`, `messages`).
    var unit = "reports"
    private var lastDraw = ContinuousClock.now
    private let start = ContinuousClock.now

    init(total: Duration, enabled: Bool, unit: String = "reports") {
        self.total = total
        self.enabled = enabled
        self.unit = unit
    }

    /// On standard error when it is a terminal (`quiet` turns it off).
    static func onTerminal(total: Duration = .seconds(1), unit: String = "reports", quiet: Bool = false) -> ProgressBar {
        ProgressBar(total: total, enabled: !quiet && isatty(STDERR_FILENO) == 1, unit: unit)
    }

    /// Draws `fraction` (0…1) of the work done, with `label` beside it.
    mutating func update(fraction: Double, label: String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - lastDraw >= .milliseconds(200) || fraction >= 1 else { return }
        lastDraw = now
        let clamped = min(1, max(0, fraction))
        let filled = Int(clamped * 30)
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 30 - filled)
        _ = try? FileDescriptor.standardError.writeAll("\r\(bar) \(Int(clamped * 100))%  \(label) ".utf8)
    }

    mutating func update(virtual done: Duration, reports: Int) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - lastDraw >= .milliseconds(200) else { return }
        lastDraw = now
        let fraction = min(1, max(0, done.secondsValue / max(total.secondsValue, 1e-9)))
        let filled = Int(fraction * 30)
        let rate = Double(reports) / max((now - start).secondsValue, 1e-6)
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 30 - filled)
        _ = try? FileDescriptor.standardError.writeAll(
            "\r\(bar) \(Int(fraction * 100))%  \(done.humanReadable)/\(total.humanReadable)  \(Int(rate)) \(unit)/s ".utf8)
    }

    func finish() {
        guard enabled else { return }
        _ = try? FileDescriptor.standardError.writeAll("\r\u{1B}[2K".utf8)
    }
}
