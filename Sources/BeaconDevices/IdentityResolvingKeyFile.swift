import BeaconCrypto
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads an identity resolving key from a file, as `devices:` and `beacond irk check` do: the file
/// must be a regular file that only its owner may read or write (mode 0600 or 0400), since whoever
/// reads the key can follow the device.
public enum IdentityResolvingKeyFile {
    /// The key in the file at `path`, in any of the forms `IdentityResolvingKeyText` (BeaconCrypto) reads.
    /// - Throws: ``IdentityResolvingKeyFileError`` saying what is wrong and what to do; never the key.
    public static func read(_ path: String) throws(IdentityResolvingKeyFileError) -> IdentityResolvingKeyText {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .unreadable(path: path, reason: errno == ENOENT ? "does not exist" : String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(path: path, reason: "is not a regular file") }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: mode) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "cannot be read by this process (uid \(getuid()))")
        }
        do throws(IdentityResolvingKeyTextError) {
            return try IdentityResolvingKeyText(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw .notAKey(path: path, error)
        }
    }
}

/// Why a key file was refused.
public enum IdentityResolvingKeyFileError: Error, Sendable, CustomStringConvertible {
    /// It cannot be read.
    case unreadable(path: String, reason: String)
    /// Others than its owner may read or write it.
    case tooOpen(path: String, mode: mode_t)
    /// What it holds is not a key.
    case notAKey(path: String, IdentityResolvingKeyTextError)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "the key file \(path) \(reason)"
        case .tooOpen(let path, let mode):
            "the key file \(path) is mode 0\(String(mode, radix: 8)): an identity resolving key lets whoever reads it "
                + "follow the device, so only its owner may read it; run chmod 600 \(path)"
        case .notAKey(let path, let error): "the key file \(path): \(error)"
        }
    }
}
