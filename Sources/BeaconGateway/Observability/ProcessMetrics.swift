#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The standard `process_*` metrics of a Prometheus client, read from `/proc` at each scrape:
/// CPU time, resident and virtual memory, open and maximum file descriptors, start time.
struct ProcessMetrics: Equatable {
    /// User and system CPU time, seconds.
    var cpuSeconds: Double
    /// Resident set size, bytes.
    var residentBytes: Double
    /// Virtual memory size, bytes.
    var virtualBytes: Double
    /// When the process started, seconds since the Unix epoch.
    var startTimeSeconds: Double
    /// Open file descriptors (`nil` when `/proc/self/fd` cannot be read).
    var openFDs: Int?
    /// The soft limit on file descriptors (`nil`: unlimited or unknown).
    var maxFDs: Int?

    /// This process's figures now; `nil` where `/proc` cannot be read (then nothing is exported).
    static func current() -> ProcessMetrics? {
        guard let stat = read("/proc/self/stat"), let systemStat = read("/proc/stat") else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let page = Double(sysconf(Int32(_SC_PAGESIZE)))
        guard var metrics = parse(stat: stat, systemStat: systemStat, ticksPerSecond: ticks, pageSize: page) else {
            return nil
        }
        metrics.openFDs = openDescriptors()
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            metrics.maxFDs = Int(limit.rlim_cur)
        }
        return metrics
    }

    /// The figures of `/proc/self/stat` (its fields after the command's closing parenthesis:
    /// utime 14, stime 15, starttime 22, vsize 23, rss 24) and `/proc/stat`'s `btime`.
    static func parse(stat: String, systemStat: String, ticksPerSecond: Double, pageSize: Double) -> ProcessMetrics? {
        // The command may hold spaces and parentheses: the fields start after the last ')'.
        guard let close = stat.lastIndex(of: ")"), ticksPerSecond > 0 else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        // fields[0] is the state (field 3): field n is fields[n - 3].
        func field(_ number: Int) -> Double? { fields.count > number - 3 ? Double(fields[number - 3]) : nil }
        guard let user = field(14), let system = field(15), let start = field(22), let virtual = field(23),
            let rss = field(24),
            let bootLine = systemStat.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
            let boot = Double(bootLine.dropFirst(6).trimmingCharacters(in: " "))
        else { return nil }
        return ProcessMetrics(
            cpuSeconds: (user + system) / ticksPerSecond, residentBytes: rss * pageSize, virtualBytes: virtual,
            startTimeSeconds: boot + start / ticksPerSecond, openFDs: nil, maxFDs: nil)
    }

    /// The families in the Prometheus text format, each with its `# HELP` and `# TYPE`.
    var exposition: String {
        var text = ""
        func family(_ name: String, _ type: String, _ help: String, _ value: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        family("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", "\(cpuSeconds)")
        family("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", "\(residentBytes)")
        family("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", "\(virtualBytes)")
        family(
            "process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.",
            "\(startTimeSeconds)")
        if let openFDs { family("process_open_fds", "gauge", "Number of open file descriptors.", "\(openFDs)") }
        if let maxFDs { family("process_max_fds", "gauge", "Maximum number of open file descriptors.", "\(maxFDs)") }
        return text
    }

    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func openDescriptors() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { count += 1 }
        }
        return count - 1 // the directory's own descriptor, open while it is read
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var text = self
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return text
    }
}
