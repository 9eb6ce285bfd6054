import Foundation
import PackagePlugin

/// Writes the commit the package is built from into `BuildCommit.swift` of the target that
/// uses it (`BeaconBuildInfo`): `git rev-parse` before each build, the file rewritten only when
/// the commit changes (so an unchanged commit rebuilds nothing). Outside a git checkout (a
/// tarball) the commit is `unknown`; uncommitted changes to tracked files add `-dirty`.
@main
struct BuildCommitPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "commit")
        let script = #"""
            set -u
            repo=$1 out=$2
            mkdir -p "$out"
            # Read-only commands: any owner's checkout is read (safe.directory for this command only).
            g() { GIT_OPTIONAL_LOCKS=0 git -C "$repo" -c safe.directory='*' "$@" 2>/dev/null; }
            commit=$(g rev-parse --short=12 HEAD) || commit=unknown
            # status refreshes the index's stat data in memory: a touched file is not a change.
            if [ "$commit" != unknown ] && [ -n "$(g status --porcelain --untracked-files=no)" ]; then commit="$commit-dirty"; fi
            file="$out/BuildCommit.swift"
            printf '// Written by BuildCommitPlugin before each build.\nlet buildCommit = "%s"\n' "$commit" > "$file.new"
            if cmp -s "$file.new" "$file"; then rm -f "$file.new"; else mv "$file.new" "$file"; fi
            """#
        return [
            .prebuildCommand(
                displayName: "Recording the commit beacond is built from",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, output.path],
                outputFilesDirectory: output)
        ]
    }
}
