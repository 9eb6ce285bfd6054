import ArgumentParser
import BeaconCore
import BeaconSiteLink
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// `beacond record-mqtt`: what a broker carries under topic filters, as JSON lines, for
/// `replay --site` (a foreign node's `capture:`).
struct RecordMQTTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record-mqtt",
        abstract: "Records MQTT messages as JSON lines (time, topic, payload), for replay --site.",
        discussion: """
            One line per message: {"time": "<ISO 8601 receive time>", "topic": "...", "payload": "<as received>"}; \
            a payload that is not UTF-8 text (a beacond gateway's binary report) is kept whole in base64 as \
            "payloadBase64". A progress bar shows on a terminal with --duration or --count. \
            Record ESPresense nodes with -t 'espresense/#', OpenMQTTGateway with -t 'home/+/BTtoMQTT/#'; \
            give the file as the nodes' capture: in a replay --site file (Docs/ForeignNodes.md).
            Exit status: 0 when the duration or count is reached (or on a signal, every line so far \
            written whole); 1 when the broker cannot be reached or the file written.
            """
    )

    @Option(help: ArgumentHelp("The broker, host[:port] (default port 1883).", valueName: "host:port"))
    var broker: String = "127.0.0.1:1883"

    @Option(name: [.customShort("t"), .long], help: ArgumentHelp("A topic filter to record (repeatable).", valueName: "filter"))
    var topic: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to append to (default: standard output).", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Stop after this long (e.g. 10m).", valueName: "duration"))
    var duration: String?

    @Option(help: ArgumentHelp("Stop after this many messages.", valueName: "n"))
    var count: Int?

    @Option(help: ArgumentHelp("MQTT user name (the password from BEACOND_MQTT_PASSWORD).", valueName: "name"))
    var username: String?

    func validate() throws {
        if topic.isEmpty { throw ValidationError("give at least one topic filter with -t, e.g. -t 'espresense/#'") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if let duration, Duration(parsing: duration) == nil {
            throw ValidationError("--duration '\(duration)' is not a duration such as 30s or 10m")
        }
    }

    func run() async throws {
        let parts = broker.split(separator: ":")
        guard (1...2).contains(parts.count), let port = parts.count == 2 ? Int(parts[1]) : 1883 else {
            throw ValidationError("--broker '\(broker)' is not host or host:port")
        }
        let descriptor: FileDescriptor
        do {
            descriptor =
                try output.map {
                    try FileDescriptor.open(
                        FilePath($0), .writeOnly, options: [.create, .append],
                        permissions: [.ownerReadWrite, .groupRead, .otherRead])
                } ?? .standardOutput
        } catch {
            printError("error: \(output ?? "-"): \(error)")
            throw ExitCode(1)
        }
        defer { if output != nil { try? descriptor.close() } }
        let recorder = MQTTRecorder(descriptor: descriptor)
        let password = username == nil ? nil : getenv("BEACOND_MQTT_PASSWORD").map { String(cString: $0) }
        let limit = duration.flatMap { Duration(parsing: $0) }
        var bar = ProgressBar.onTerminal(total: limit ?? .seconds(1), unit: "messages", quiet: limit == nil && count == nil)
        defer { bar.finish() }
        do {
            try await recorder.run(
                host: String(parts[0]), port: port,
                username: username, password: password, topics: topic, limit: count,
                duration: duration.flatMap { Duration(parsing: $0) }
            ) { connected, detail in
                printError(
                    connected ? "record-mqtt: \(detail), recording \(topic.joined(separator: " "))" : "record-mqtt: \(detail)")
            } onProgress: { messages, elapsed in
                if limit != nil {
                    bar.update(virtual: elapsed, reports: messages)
                } else if let count {
                    bar.update(fraction: Double(messages) / Double(count), label: "\(messages)/\(count) messages")
                }
            }
        } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        bar.finish()
        let binary = recorder.binaryCount
        printError(
            "record-mqtt: \(recorder.count) messages"
                + (binary == 0
                    ? ""
                    : " (\(binary) not UTF-8 text, such as a beacond gateway's binary reports: kept whole in base64, as payloadBase64)")
        )
    }
}
