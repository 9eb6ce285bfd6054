#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a file named in a configuration cannot be read, in words a person can act on — not a
/// platform error dump.
public enum UnreadableFile {
    /// What stops this process reading `path` ("does not exist", "is a directory, not a file",
    /// "is mode 0600, owned by uid 0 gid 0: this process (uid 1000) may not read it" …), or `nil`
    /// when it can be read.
    public static func reason(_ path: String) -> String? {
        var status = stat()
        if stat(path, &status) != 0 {
            let error = errno
            switch error {
            case ENOENT:
                let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
                var parent = stat()
                if !directory.isEmpty, stat(directory, &parent) != 0 {
                    return "does not exist (nor does its directory \(directory))"
                }
                return "does not exist"
            case EACCES: return "is in a directory this process (uid \(getuid())) may not enter"
            case ENOTDIR: return "has a path through something that is not a directory"
            default: return String(cString: strerror(error))
            }
        }
        if (status.st_mode & S_IFMT) == S_IFDIR { return "is a directory, not a file" }
        if access(path, R_OK) != 0 {
            let mode = String(status.st_mode & 0o7777, radix: 8)
            return
                "is mode 0\(mode), owned by uid \(status.st_uid) gid \(status.st_gid): this process (uid \(getuid())) may not read it"
        }
        return nil
    }
}
