import BeaconSite
import Foundation

/// Where a hub keeps its calibrated radio model across restarts: one JSON document
/// (`CalibrationStatus`), replaced whole (written to a temporary file, then renamed) after
/// each fit, so a crash leaves the old model or the new one, never half of either.
package struct CalibrationFile: Sendable {
    /// The file's path.
    package let path: String

    package init(path: String) { self.path = path }

    /// The saved status; `nil` when there is no file yet.
    /// - Throws: a file that exists but cannot be read or is not a saved calibration, with what
    ///   to do in the message.
    package func load() throws -> CalibrationStatus? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try JSONDecoder().decode(CalibrationStatus.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CalibrationFileError(
                message: "\(path) is not a saved calibration (\(error)); delete it and the hub calibrates afresh")
        }
    }

    /// Replaces the file with `status`.
    package func save(_ status: CalibrationStatus) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let temporary = path + ".new"
        try encoder.encode(status).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            throw CalibrationFileError(message: "cannot replace \(path) (errno \(errno)); check the directory is writable")
        }
    }
}
