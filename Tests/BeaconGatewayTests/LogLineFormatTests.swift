import BeaconCore
import BeaconTestSupport
import Foundation
import Logging
import Synchronization
import Testing

@testable import BeaconGateway

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's log lines: text, logfmt and JSON, with the message before its metadata, and
/// journald's priority prefix without a second time when standard error is the journal.
@Suite("Log lines: text, logfmt, json, journald")
struct LogLineFormatTests {
    static let time = Timestamp(nanosecondsSinceEpoch: 1_764_487_855_123_000_000) // 2025-11-30T07:30:55.123Z
    static let metadata: Logger.Metadata = ["sink": "hook", "attempt": "1", "delay": "1.17s"]
    static let message = "sink 'hook': delivery failed (connection refused); retry 1 in 1.17s"

    static func line(_ format: LogLineFormat, level: Logger.Level = .warning, message: String = message) -> String {
        format.line(level: level, message: message, metadata: metadata, source: "BeaconGateway", time: time)
    }

    @Test("text: one time, the level, the source, the message, then the metadata sorted by key")
    func text() {
        #expect(
            Self.line(LogLineFormat(style: .text))
                == "2025-11-30T07:30:55.123Z warning [BeaconGateway] \(Self.message) attempt=1 delay=1.17s sink=hook")
    }

    @Test("logfmt: key=value pairs; values with spaces, quotes or equals signs quoted and escaped")
    func logfmt() {
        #expect(
            Self.line(LogLineFormat(style: .logfmt))
                == #"time=2025-11-30T07:30:55.123Z level=warning source=BeaconGateway msg="sink 'hook': delivery failed (connection refused); retry 1 in 1.17s" attempt=1 delay=1.17s sink=hook"#
        )
        #expect(LogLineFormat.logfmtValue("") == #""""#)
        #expect(LogLineFormat.logfmtValue(#"a "b"=c\d"#) == #""a \"b\"=c\\d""#)
        #expect(LogLineFormat.logfmtValue("two\nlines") == #""two\nlines""#)
        #expect(LogLineFormat.logfmtValue("bell\u{7}") == #""bell\u0007""#)
        #expect(LogLineFormat.logfmtKey("a key=x") == "a_key_x")
    }

    @Test("json: one object a line, the record's fields first; metadata named like them is kept beside them")
    func json() throws {
        let line = LogLineFormat(style: .json).line(
            level: .error, message: "two\nlines", metadata: ["message": "clash", "sink": "hook"], source: "BeaconSinks",
            time: Self.time)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(
            object == [
                "time": "2025-11-30T07:30:55.123Z", "level": "error", "source": "BeaconSinks", "message": "two\nlines",
                "meta.message": "clash", "sink": "hook",
            ])
    }

    @Test(
        "journald: each level's syslog priority first, no time in text and logfmt (the journal keeps its own)",
        arguments: [
            (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
        ])
    func journal(level: Logger.Level, priority: Int) {
        #expect(LogLineFormat.priority(of: level) == priority)
        let text = Self.line(LogLineFormat(style: .text, isJournal: true), level: level, message: "m")
        #expect(text == "<\(priority)>\(level) [BeaconGateway] m attempt=1 delay=1.17s sink=hook")
        let logfmt = Self.line(LogLineFormat(style: .logfmt, isJournal: true), level: level, message: "m")
        #expect(logfmt.hasPrefix("<\(priority)>level=\(level) source=BeaconGateway msg=m "))
        let json = Self.line(LogLineFormat(style: .json, isJournal: true), level: level, message: "m")
        #expect(json.hasPrefix("<\(priority)>{\"time\":"))
    }

    @Test("a message's line breaks stay on its line in text")
    func oneLine() {
        #expect(LogLineFormat.oneLine("first\nsecond\r\nthird") == #"first\nsecond\nthird"#)
    }

    @Test("JOURNAL_STREAM names the journal only when it is standard error's device and inode")
    func journalStream() throws {
        var status = stat()
        try #require(fstat(STDERR_FILENO, &status) == 0)
        let own = "\(status.st_dev):\(status.st_ino)"
        #expect(DaemonLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": own]))
        #expect(
            !DaemonLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino + 1)"]))
        #expect(!DaemonLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": "garbage"]))
        #expect(!DaemonLogHandler.standardErrorIsJournal(environment: [:]))
    }

    @Test("the handler writes each record as one line with its logger's metadata, the record's winning")
    func handler() {
        let lines = Mutex<[String]>([])
        var handler = DaemonLogHandler(
            format: LogLineFormat(style: .logfmt), write: { text in lines.withLock { $0.append(text) } },
            now: { Self.time })
        handler.metadata = ["sink": "hook", "attempt": "0"]
        var logger = Logger(label: "beacond") { _ in handler }
        logger.logLevel = .info
        logger.debug("below the level")
        logger.notice("delivered", metadata: ["attempt": "2"])
        #expect(
            lines.withLock { $0 }
                == ["time=2025-11-30T07:30:55.123Z level=notice source=BeaconGatewayTests msg=delivered attempt=2 sink=hook\n"])
    }

    /// Runs `beacond run` on the lobby simulation with standard error in a file, `JOURNAL_STREAM`
    /// naming that file when `journal`; its log lines.
    static func daemonLines(journal: Bool, format: String) async throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = directory.appendingPathComponent("gateway.yaml")
        try "source: {simulate: \(TestPaths.scenario("lobby"))}\nsinks: [{type: jsonl, path: /dev/null}]\nalerts: []\n"
            .write(to: configuration, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        var status = stat()
        guard fstat(handle.fileDescriptor, &status) == 0 else { throw POSIXError(.EBADF) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.beacond)
        process.arguments = ["run", "--config", configuration.path, "--log-format", format]
        var environment = ProcessInfo.processInfo.environment
        environment["JOURNAL_STREAM"] = journal ? "\(status.st_dev):\(status.st_ino)" : nil
        process.environment = environment
        process.standardError = handle
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        await waitForExit(process)
        try handle.close()
        #expect(process.terminationStatus == 0)
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("beacond run under journald: every line starts with its priority, none with a time; json lines parse")
    func daemonUnderJournal() async throws {
        let journal = try await Self.daemonLines(journal: true, format: "text")
        #expect(
            journal.contains(
                "<4>warning [BeaconGateway] no 'state:' file: alert state and undelivered events are kept in memory and lost on exit"
            ), "\(journal)")
        #expect(journal.contains { $0.hasPrefix("<5>notice [BeaconGateway] ready: source running") }, "\(journal)")
        #expect(journal.allSatisfy { $0.firstMatch(of: /^<[2-7]>/) != nil }, "\(journal)")
        #expect(!journal.contains { $0.contains("2026-") || $0.contains("T0") }, "one time: the journal's")
        let json = try await Self.daemonLines(journal: false, format: "json")
        let records = json.filter { $0.hasPrefix("{") }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
        }
        #expect(records.count >= 3 && records.count == json.filter { $0.hasPrefix("{") }.count, "\(json)")
        #expect(records.contains { $0["level"] == "notice" && $0["message"] == "ready: source running" }, "\(json)")
    }
}
