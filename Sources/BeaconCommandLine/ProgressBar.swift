import BeaconCore
import SystemPackage

/// A one-line progress bar on stderr: virtual time done and reports per second.
struct ProgressBar {
    let total: Duration
    let enabled: Bool
    private var lastDraw = ContinuousClock.now
    private let start = ContinuousClock.now

    init(total: Duration, enabled: Bool) {
        self.total = total
        self.enabled = enabled
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
            "\r\(bar) \(Int(fraction * 100))%  \(done.humanReadable)/\(total.humanReadable)  \(Int(rate)) reports/s ".utf8)
    }

    func finish() {
        guard enabled else { return }
        _ = try? FileDescriptor.standardError.writeAll("\r\u{1B}[2K".utf8)
    }
}
