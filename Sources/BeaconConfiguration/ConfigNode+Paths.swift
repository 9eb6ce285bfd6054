extension ConfigNode {
    /// A file named by this node: as written when absolute; a relative path resolves against the
    /// directory of the configuration file that names it — not the working directory, which
    /// under systemd is `/`. `-` (standard output or input, where the key allows it) stays.
    public func filePath() throws(ConfigurationError) -> String {
        Self.resolve(try string(), against: file)
    }

    /// `path` resolved against the directory of `file` (see ``filePath()``); unchanged when it
    /// is absolute, `-`, or when `file` is not a file (a document given as text, or a URL).
    public static func resolve(_ path: String, against file: String) -> String {
        guard !path.isEmpty, !path.hasPrefix("/"), path != "-", !file.hasPrefix("<"), !file.contains("://"),
            let slash = file.lastIndex(of: "/")
        else { return path }
        return String(file[...slash]) + path
    }
}
