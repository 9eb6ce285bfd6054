import ArgumentParser
import BeaconWire
import SystemPackage

extension AdvertisementOutputFormat: ExpressibleByArgument {}
extension BeaconFamily: ExpressibleByArgument {}

/// `beacond parse FILE...`: advertising reports of capture files as JSON lines or CSV.
struct ParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Decode the advertising reports of btsnoop, pcap and pcapng captures.",
        discussion: """
            Reads HCI captures (btsnoop 1001/1002/2001, pcap/pcapng link types 187, 201, 254) and LE \
            sniffer captures (link types 256 and 272). Writes one record per advertising report or \
            sniffer advertising PDU to stdout and a summary per file to stderr. Exit status: 0 when \
            every file was read to its end, 1 when a file cannot be read at all, 2 when --strict meets \
            a bad record. See Docs/Captures.md for the columns and fields.
            """
    )

    @Argument(help: "Capture files to decode, in order.")
    var files: [String]

    @Option(help: "Output format: jsonl or csv.")
    var format: AdvertisementOutputFormat = .jsonLines

    @Option(help: "Only reports carrying this beacon family: ibeacon, eddystone or altbeacon.")
    var only: BeaconFamily?

    @Flag(help: "Stop at the first record that cannot be decoded (exit status 2).")
    var strict = false

    func run() throws {
        let export = AdvertisementExport(options: .init(format: format, only: only, strict: strict))
        let status = export.run(
            paths: files,
            // A failure to write standard output is dropped: see StandardOutput.
            output: { bytes in _ = try? FileDescriptor.standardOutput.writeAll(bytes) },
            diagnostics: { line in printError(line) })
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
