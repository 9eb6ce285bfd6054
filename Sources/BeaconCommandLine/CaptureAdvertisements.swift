import BeaconCore
import BeaconWire

/// The advertising reports of capture files, in order, each with the file's name (what
/// `beacond devices` and `beacond irk check` take as "where it was heard").
enum CaptureAdvertisements {
    /// Calls `body` with every advertising report of `paths`.
    /// - Throws: ``CommandProblem`` naming a file that cannot be read, and why.
    static func forEach(
        in paths: [String], _ body: (_ report: AdvertisingReport, _ time: Timestamp, _ file: String) -> Void
    ) throws {
        let decoder = CaptureDecoder()
        for path in paths {
            let file: CaptureFile
            do {
                file = try CaptureFile(path: path)
            } catch {
                throw CommandProblem("\(path): \(error)")
            }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            _ = decoder.decode(file) { item in
                if case .advertisement(let advertisement) = item {
                    body(advertisement.report, advertisement.timestamp, name)
                }
            }
        }
    }
}
