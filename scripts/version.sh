#!/usr/bin/env bash
# Prints beacond's version (one line, a valid Debian version), derived from git:
#
#   on tag v1.2.0, clean tree            1.2.0
#   3 commits after v1.2.0               1.2.0+3.gabc1234
#   tag v1.3.0-rc1                       1.3.0~rc1           (~ sorts before 1.3.0)
#   no v* tag in the history             0.0.0+git.42.abc1234   (42 commits, HEAD abc1234)
#   uncommitted changes (tracked files   …+0.gabc1234.dirty on a tag, else ….dirty appended:
#     modified, or untracked files that  sorts after the clean build of the same commit and
#     are not ignored)                   before the next commit's)
#
# `make dist` builds with this version (beacond --version, the .deb's Version:, its file name).
# BEACOND_VERSION=x.y.z overrides it (e.g. building from a tarball without .git); it is checked
# like the derived one. Reads git only (GIT_OPTIONAL_LOCKS=0: never takes the index lock of a
# working tree someone is committing in). Exit 1 with a message when no version can be made.
#
#   scripts/version.sh
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
err() { echo "version.sh: $*" >&2; exit 1; }
# A Debian version without a revision: starts with a digit; letters, digits and . + ~ only.
valid() { [[ $1 =~ ^[0-9][A-Za-z0-9.+~]*$ ]]; }

if [ -n "${BEACOND_VERSION:-}" ]; then
    valid "$BEACOND_VERSION" || err "BEACOND_VERSION='$BEACOND_VERSION' is not a Debian version (digit first, then [A-Za-z0-9.+~])"
    echo "$BEACOND_VERSION"
    exit 0
fi

export GIT_OPTIONAL_LOCKS=0
# safe.directory: under sudo the repository may belong to another user (make test-dist).
git() { command git -C "$REPO" -c safe.directory="$REPO" "$@"; }
git rev-parse --verify -q HEAD > /dev/null \
    || err "$REPO is not a git checkout with a commit; set BEACOND_VERSION=x.y.z"
[ "$(git rev-parse --is-shallow-repository)" = true ] \
    && echo "version.sh: warning: shallow clone, tags or commit counts may be missing (git fetch --unshallow --tags)" >&2

dirty=false
[ -n "$(git status --porcelain --untracked-files=normal)" ] && dirty=true

if desc=$(git describe --tags --match 'v[0-9]*' --long --abbrev=7 2> /dev/null); then
    # --long: always TAG-N-gSHA, also on the tag itself (N = 0). TAG may contain '-'.
    sha=${desc##*-g}
    rest=${desc%-g*}
    count=${rest##*-}
    base=${rest%-*}
    base=${base#v}
    base=${base//-/\~}            # v1.3.0-rc1 → 1.3.0~rc1 (a '-' would start a Debian revision)
    if [ "$count" = 0 ] && ! $dirty; then
        version=$base
    else
        version=$base+$count.g$sha
    fi
else
    version=0.0.0+git.$(git rev-list --count HEAD).$(git rev-parse --short=7 HEAD)
fi
$dirty && version=$version.dirty
valid "$version" || err "cannot make a Debian version from '${desc:-$version}' (tags must look like v1.2.3)"
echo "$version"
