/// The logic of `beacond parse`: decodes capture files and writes one record per advertising
/// report (or sniffer advertising PDU) as CSV or JSON lines, with a summary per file on the
/// diagnostics channel. The command-line layer only parses arguments and wires stdout / stderr.
public struct AdvertisementExport: Sendable {
    /// What to write and how to treat bad records.
    public struct Options: Hashable, Sendable {
        /// Output format.
        public var format: AdvertisementOutputFormat
        /// Write only reports holding a frame of this family.
        public var only: BeaconFamily?
        /// Stop at the first bad record with ``AdvertisementExportStatus/badRecord``.
        public var strict: Bool
        /// Which sniffer PDUs count as reports.
        public var decoder: CaptureDecoder.Configuration

        /// Creates options.
        public init(
            format: AdvertisementOutputFormat = .jsonLines, only: BeaconFamily? = nil, strict: Bool = false,
            decoder: CaptureDecoder.Configuration = .init()
        ) {
            self.format = format
            self.only = only
            self.strict = strict
            self.decoder = decoder
        }
    }

    /// Output is handed over in chunks of about this many bytes.
    public static let chunkSize = 1 << 16

    /// The options.
    public let options: Options

    /// Creates an export.
    public init(options: Options) {
        self.options = options
    }

    private struct StrictStop: Error {
        let error: CaptureDecodeError
    }

    /// Decodes `paths` in order, handing output bytes to `output` and one line per file (summary
    /// or reason for failure) to `diagnostics`.
    /// - Returns: the status; the process exit code is its raw value.
    public func run(
        paths: [String], output: (UnsafeRawBufferPointer) -> Void,
        diagnostics: (String) -> Void
    ) -> AdvertisementExportStatus {
        let buffer = OutputBuffer(capacity: Self.chunkSize + 4096)
        let csv = AdvertisementCSVWriter()
        let json = AdvertisementJSONLinesWriter()
        let decoder = CaptureDecoder(configuration: options.decoder)
        var status = AdvertisementExportStatus.success
        var total = CaptureSummary()
        if options.format == .csv { csv.appendHeader(to: buffer) }
        func flush() {
            buffer.withUnsafeBytes { output($0) }
            buffer.removeAll()
        }
        for path in paths {
            let file: CaptureFile
            do {
                file = try CaptureFile(path: path)
            } catch {
                diagnostics("\(path): \(error)")
                status = .unreadableFile
                continue
            }
            do {
                let summary = try decoder.decode(file) { item in
                    switch item {
                    case .advertisement(let advertisement):
                        let facts = AdvertisementFacts(data: advertisement.report.data)
                        if let only = options.only, !facts.contains(only) { return }
                        switch options.format {
                        case .csv: csv.append(advertisement, facts: facts, to: buffer)
                        case .jsonLines: json.append(advertisement, facts: facts, to: buffer)
                        }
                        if buffer.count >= Self.chunkSize { flush() }
                    case .error(let error):
                        if options.strict { throw StrictStop(error: error) }
                    }
                }
                total.add(summary)
                diagnostics("\(path): \(file.format), \(summary.line)")
            } catch let stop as StrictStop {
                flush()
                diagnostics("\(path): \(stop.error)")
                return .badRecord
            } catch {
                diagnostics("\(path): \(error)")
                status = .badRecord
            }
        }
        flush()
        if paths.count > 1 { diagnostics("total: \(total.line)") }
        return status
    }
}
