// engine-crash-harness: runs the scripted alert-engine steps of `CrashScript` against a SQLite
// state store, appending every event's JSON line to a log. With `--kill-after N` it runs N steps
// from where the last run stopped and then kills itself with SIGKILL, so a test can check that
// restarts between steps neither lose nor repeat an event.
//
//   engine-crash-harness --db state.sqlite --log events.jsonl --progress progress.txt [--kill-after N]
//
// Exit status: 0 when the script is complete ("done" on stdout), 2 on bad arguments, 1 on failure.
import BeaconAlertEngine
import BeaconCore
import BeaconStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

guard let dbPath = option("--db"), let logPath = option("--log"), let progressPath = option("--progress") else {
    FileHandle.standardError.write(
        Data("usage: engine-crash-harness --db PATH --log PATH --progress PATH [--kill-after N]\n".utf8))
    exit(2)
}
let killAfter = option("--kill-after").flatMap(Int.init)

do {
    let store = try SQLiteAlertStateStore(path: dbPath)
    var engine = try StoredAlertEngine(configuration: try CrashScript.configuration(), store: store)
    let done =
        (try? String(contentsOfFile: progressPath, encoding: .utf8)).flatMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        } ?? 0
    if !FileManager.default.fileExists(atPath: logPath) { _ = FileManager.default.createFile(atPath: logPath, contents: nil) }
    guard let log = FileHandle(forWritingAtPath: logPath) else { throw CocoaError(.fileNoSuchFile) }
    var ran = 0
    for index in done..<CrashScript.steps.count {
        let events = try CrashScript.run(CrashScript.steps[index], on: &engine)
        try log.seekToEnd()
        try log.write(contentsOf: Data(events.map { $0.event.jsonLine + "\n" }.joined().utf8))
        try log.synchronize()
        try Data("\(index + 1)\n".utf8).write(to: URL(fileURLWithPath: progressPath), options: .atomic)
        ran += 1
        if let killAfter, ran >= killAfter, index + 1 < CrashScript.steps.count {
            kill(getpid(), SIGKILL)
        }
    }
    print("done \(CrashScript.steps.count)")
} catch {
    FileHandle.standardError.write(Data("engine-crash-harness: \(error)\n".utf8))
    exit(1)
}
