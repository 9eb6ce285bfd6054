import CBeacondVersion

/// What this build of beacond is: its version and the commit it was built from, as
/// `beacond --version`, `beacond_build_info` and the status page tell them.
public enum BuildInfo {
    /// The version: `0.0.0-dev` from a source build, the version from git tags from `make dist`
    /// (`scripts/version.sh`, passed as `-DBEACOND_VERSION`).
    public static let version = String(cString: beacond_version())

    /// The commit built from (12 hex digits, `-dirty` with uncommitted changes to tracked files;
    /// `unknown` outside a git checkout), recorded by `BuildCommitPlugin` before each build.
    public static let commit = buildCommit

    /// `VERSION (commit COMMIT)`: what `beacond --version` prints.
    public static var versionLine: String { "\(version) (commit \(commit))" }
}
