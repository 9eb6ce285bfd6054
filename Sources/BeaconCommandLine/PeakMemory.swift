#if canImport(Glibc)
import Glibc
#endif

/// The process's peak resident memory, for the summaries of the commands that read whole
/// captures or days (what a flood or a long replay cost).
enum PeakMemory {
    /// The peak resident set size so far, in mebibytes (`getrusage`'s `ru_maxrss`).
    static var residentMebibytes: Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Double(usage.ru_maxrss) / 1024 // kilobytes on Linux
    }

    /// `peak RSS 41.2 MB`.
    static var summary: String {
        let tenths = (residentMebibytes * 10).rounded() / 10
        return "peak RSS \(tenths) MB"
    }
}
