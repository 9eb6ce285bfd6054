#!/usr/bin/env bash
# Builds the Debian package a gateway installs without a Swift toolchain (make dist):
#   .build-dist/beacond_VERSION_ARCH.deb      VERSION from scripts/version.sh,
#                                             ARCH from dpkg --print-architecture
# 1. a release beacond with the Swift runtime linked statically, in its own scratch path:
#      swift build -c release --static-swift-stdlib --product beacond --scratch-path .build-dist
#                  -Xcc -DBEACOND_VERSION="VERSION"
#    (an unchanged tree is a no-op build; a new version changes every compile command, so each
#    new commit or a dirty tree rebuilds everything, 10-15 min on 2 cores)
# 2. checks: no Swift runtime library left dynamically linked (readelf/ldd), every shared
#    library found, `beacond --version` prints VERSION (then its commit)
# 3. the package: /usr/bin/beacond (stripped; symbols in .build-dist/beacond_VERSION_ARCH.debug),
#    /lib/systemd/system/beacond.service (deploy/), /etc/beacond/gateway.yaml (deploy/, a
#    conffile), /usr/share/doc/beacond/{README.md,Docs/*.md,copyright,changelog.gz}, the manual
#    page beacond(1) (generate-manual), bash, zsh and fish completions, maintainer scripts from
#    packaging/deb/; Depends computed with dpkg-shlibdeps from the libraries the binary links
#    (cross-checked with ldd + dpkg -S); lintian passes, or each tag is explained in
#    packaging/deb/lintian-overrides.
# Installs what it needs with apt-get (root or sudo): the build dependencies
# (scripts/ensure-deps.sh build), dpkg-dev, binutils and lintian.
#
#   scripts/dist.sh
# Env: BEACOND_BINARY=PATH  package this binary instead of building (it must be a static-runtime
#                           build reporting VERSION; the copyright file lists the Swift packages
#                           in .build-dist/checkouts when there are any)
#      BEACOND_VERSION=X    use this version instead of git's (scripts/version.sh checks it)
#      DEB_MAINTAINER       the Maintainer field (default: the author of HEAD)
#      SWIFT                the swift driver (default swift)
#      SWIFT_BUILD_FLAGS    more arguments for swift build, e.g. "-j 1" on a small board
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH=$REPO/.build-dist
SWIFT=${SWIFT:-swift}
export SWIFT
say() { echo "[dist] $*"; }
die() { echo "[dist] error: $*" >&2; exit 1; }
start=$(date +%s)
cd "$REPO"

version=$(scripts/version.sh)
arch=$(dpkg --print-architecture)
deb=$SCRATCH/beacond_${version}_${arch}.deb
say "beacond $version for $arch"

# Tools: the build dependencies, dpkg-shlibdeps (dpkg-dev), readelf/strip/objcopy (binutils).
scripts/ensure-deps.sh build
missing=()
command -v dpkg-shlibdeps > /dev/null || missing+=(dpkg-dev)
command -v lintian > /dev/null || missing+=(lintian)
command -v readelf > /dev/null && command -v objcopy > /dev/null || missing+=(binutils)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    say "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi

# 1. The binary.
mkdir -p "$SCRATCH"
if [ -n "${BEACOND_BINARY:-}" ]; then
    bin=$BEACOND_BINARY
    [ -x "$bin" ] || die "BEACOND_BINARY=$bin is not an executable file"
    say "packaging $bin (no build)"
else
    # The version reaches the CBeacondVersion module's header as a C string literal; each
    # argument goes to clang unsplit (no shell in between), so the quotes stay part of the value.
    read -ra extra <<< "${SWIFT_BUILD_FLAGS:-}"
    build=("$SWIFT" build -c release --static-swift-stdlib --product beacond --scratch-path "$SCRATCH"
           -Xcc "-DBEACOND_VERSION=\"$version\"" ${extra[@]+"${extra[@]}"})
    say "${build[*]}"
    t=$(date +%s)
    if ! "${build[@]}" 2>&1 | tee "$SCRATCH/build.log"; then
        die "release build failed (log: $SCRATCH/build.log)"
    fi
    say "release build in $(( $(date +%s) - t ))s"
    bin=$("${build[@]}" --show-bin-path)/beacond
    [ -x "$bin" ] || die "no binary at $bin after the build"
fi

# 2. Checks on the binary as built.
needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || die "readelf found no NEEDED entries in $bin (not a dynamic ELF executable?)"
swiftlibs=$(echo "$needed" | grep -E '^(libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|libicu.*swift|libXCTest|libTesting)' || true)
[ -z "$swiftlibs" ] || die "Swift runtime libraries are still linked dynamically (--static-swift-stdlib?): $(tr '\n' ' ' <<< "$swiftlibs")"
ldd_out=$(ldd "$bin") || die "ldd $bin failed: $ldd_out"
if echo "$ldd_out" | grep -q 'not found'; then
    die "libraries not found: $(echo "$ldd_out" | grep 'not found' | tr -s ' \t' ' ')"
fi
if echo "$ldd_out" | grep -qE '/swift|libswift'; then
    die "a library is loaded from the Swift toolchain: $(echo "$ldd_out" | grep -E '/swift|libswift' | tr -s ' \t' ' ')"
fi
runpath=$(readelf -d "$bin" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')
[ -z "$runpath" ] || say "note: the binary has RPATH/RUNPATH '$runpath' (no library is loaded from it)"
say "links: $(tr '\n' ' ' <<< "$needed")"

reported=$("$bin" --version 2>&1) || die "$bin --version failed: $reported"
# `VERSION (commit SHA)`: the version is its first word.
reported=${reported%% *}
if [ "$reported" != "$version" ]; then
    if [ -n "${BEACOND_BINARY:-}" ]; then
        die "$bin --version printed '$reported', want '$version' (build it with -Xcc '-DBEACOND_VERSION=\"$version\"', or set BEACOND_VERSION)"
    fi
    die "beacond --version printed '$reported', want '$version' (the build passed -DBEACOND_VERSION: does the source read it, through the CBeacondVersion module, for CommandConfiguration(version:)?)"
fi
say "beacond --version: $reported"

# 3. The package tree, laid out where dpkg-shlibdeps expects it (debian/beacond/…).
work=$SCRATCH/deb
stage=$work/debian/beacond
rm -rf "$work"
mkdir -p "$stage/DEBIAN"
install -D -m 0755 "$bin" "$stage/usr/bin/beacond"
objcopy --only-keep-debug "$bin" "$SCRATCH/beacond_${version}_${arch}.debug"
strip --strip-unneeded --remove-section=.comment "$stage/usr/bin/beacond"
objcopy --add-gnu-debuglink="$SCRATCH/beacond_${version}_${arch}.debug" "$stage/usr/bin/beacond"

unit=deploy/beacond.service
grep -q '^ExecStart=/usr/bin/beacond ' "$unit" || die "$unit: ExecStart= must run /usr/bin/beacond (the packaged path)"
! grep -qE '^Exec[A-Za-z]*=.*/usr/local/' "$unit" || die "$unit: an Exec line still points into /usr/local"
install -D -m 0644 "$unit" "$stage/lib/systemd/system/beacond.service"
install -D -m 0640 deploy/gateway.yaml "$stage/etc/beacond/gateway.yaml"

# The manual page, from the command line's own description (swift-argument-parser's
# generate-manual, built here in debug: its plugin would build beacond again), dated like the
# package; and the shell completions the binary writes.
epoch_date=$(date -u -d "@$(git -c safe.directory="$REPO" log -1 --format=%ct 2> /dev/null || date +%s)" +%F)
"$SWIFT" package --scratch-path "$SCRATCH" generate-manual --help > /dev/null 2>> "$SCRATCH/build.log" \
    || die "could not build swift-argument-parser's generate-manual (log: $SCRATCH/build.log)"
manual_tool=$SCRATCH/debug/generate-manual-tool
[ -x "$manual_tool" ] || die "no $manual_tool after building generate-manual"
rm -rf "$SCRATCH/man" && mkdir -p "$SCRATCH/man"
"$manual_tool" "$bin" --date "$epoch_date" --output-directory "$SCRATCH/man" > /dev/null \
    || die "generate-manual could not describe $bin"
install -d -m 0755 "$stage/usr/share/man/man1"
gzip -9n < "$SCRATCH/man/beacond.1" > "$stage/usr/share/man/man1/beacond.1.gz"
chmod 0644 "$stage/usr/share/man/man1/beacond.1.gz"
completion() { "$bin" --generate-completion-script "$1" > "$2" || die "beacond cannot write its $1 completion"; chmod 0644 "$2"; }
install -d -m 0755 "$stage/usr/share/bash-completion/completions" "$stage/usr/share/zsh/vendor-completions" \
    "$stage/usr/share/fish/vendor_completions.d"
completion bash "$stage/usr/share/bash-completion/completions/beacond"
# A completion file is sourced, not run: no #! line (lintian: bash-completion-with-hashbang).
sed -i '1{/^#!/d}' "$stage/usr/share/bash-completion/completions/beacond"
completion zsh "$stage/usr/share/zsh/vendor-completions/_beacond"
completion fish "$stage/usr/share/fish/vendor_completions.d/beacond.fish"

doc=$stage/usr/share/doc/beacond
install -D -m 0644 README.md "$doc/README.md"
install -d -m 0755 "$doc/Docs"
install -m 0644 Docs/*.md "$doc/Docs/"
checkouts=$SCRATCH/checkouts
[ -d "$checkouts" ] || say "warning: no $checkouts: the copyright file names beacond and the Swift runtime only"
packaging/make-copyright.sh "$checkouts" "$bin" > "$doc/copyright"
chmod 0644 "$doc/copyright"

epoch=$(git -c safe.directory="$REPO" log -1 --format=%ct 2> /dev/null || date +%s)
export SOURCE_DATE_EPOCH=$epoch
maintainer=${DEB_MAINTAINER:-$(git -c safe.directory="$REPO" log -1 --format='%an <%ae>' 2> /dev/null || true)}
[ -n "$maintainer" ] || die "set DEB_MAINTAINER='Name <mail>' (no git author to take it from)"

# A changelog, as Debian wants one in every package: what was built, from which commit.
commit=$(git -c safe.directory="$REPO" rev-parse HEAD 2> /dev/null || echo unknown)
{
    echo "beacond ($version) unstable; urgency=medium"
    echo
    echo "  * Built by make dist from commit $commit."
    echo "    The changes are in the project's git history."
    echo
    echo " -- $maintainer  $(date -R -u -d "@$epoch")"
} | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

install -m 0755 packaging/deb/postinst packaging/deb/prerm packaging/deb/postrm "$stage/DEBIAN/"
install -m 0644 packaging/deb/conffiles "$stage/DEBIAN/"
install -D -m 0644 packaging/deb/lintian-overrides "$stage/usr/share/lintian/overrides/beacond"

# Depends: dpkg-shlibdeps maps each NEEDED library to its package (shlibs/symbols files) with
# the lowest version that has every symbol the binary uses.
printf 'Source: beacond\n\nPackage: beacond\nArchitecture: any\n' > "$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O debian/beacond/usr/bin/beacond 2> "$work/shlibdeps.err") \
    || { cat "$work/shlibdeps.err" >&2; die "dpkg-shlibdeps failed"; }
shlibs=${shlibs#shlibs:Depends=}
[ -n "$shlibs" ] || die "dpkg-shlibdeps computed no dependencies"
# The release link packs the relative relocations (DT_RELR, Package.swift): the dynamic loader
# must know them, glibc 2.36 on (Debian 12), which dpkg-shlibdeps does not infer from the
# binary's GLIBC_ABI_DT_RELR version need.
if readelf -V "$bin" | grep -q 'GLIBC_ABI_DT_RELR'; then
    libc=$(echo "$shlibs" | sed -nE 's/.*libc6 \(>= ([^)]+)\).*/\1/p')
    [ -n "$libc" ] || die "Depends has no libc6 (>= …) to raise for DT_RELR: $shlibs"
    if dpkg --compare-versions "$libc" lt 2.36; then
        shlibs=${shlibs/"libc6 (>= $libc)"/"libc6 (>= 2.36)"}
    fi
fi
# Cross-check: the package of every library the binary names (NEEDED; ldd gives the path) must
# be in Depends. Their own dependencies (libssl3 for libmosquitto1 …) come with those packages.
owner() { dpkg -S "$1" 2> /dev/null | head -1 | cut -d: -f1 || true; }
while read -r lib path; do
    echo "$needed" | grep -qxF "$lib" || continue
    pkg=$(owner "$path")
    [ -n "$pkg" ] || pkg=$(owner "$(readlink -f "$path")")
    [ -n "$pkg" ] || die "no Debian package owns $path ($lib): the package cannot depend on it"
    [[ ", $shlibs" == *", $pkg "* || ", $shlibs," == *", $pkg,"* ]] \
        || die "$lib comes from $pkg, which is missing from Depends: $shlibs"
done < <(echo "$ldd_out" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }')

installed_size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$installed_size|" -e "s|@SHLIBS_DEPENDS@|$shlibs|" \
    packaging/deb/control.in > "$stage/DEBIAN/control"
grep -q '@[A-Z_]*@' "$stage/DEBIAN/control" && die "unfilled field in DEBIAN/control: $(grep '@[A-Z_]*@' "$stage/DEBIAN/control")"
(cd "$stage" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\n' | LC_ALL=C sort \
    | xargs md5sum > DEBIAN/md5sums)
chmod 0644 "$stage/DEBIAN/md5sums" "$stage/DEBIAN/control"
find "$stage" -exec touch -h -d "@$epoch" {} +

rm -f "$deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" > /dev/null
dpkg-deb --info "$deb" > /dev/null || die "dpkg-deb cannot read $deb"

# Lintian on what was built: a tag not explained in packaging/deb/lintian-overrides (installed
# with the package, one reason a tag) fails the build.
lintian_status=0
lintian --fail-on error,warning --tag-display-limit 0 "$deb" > "$SCRATCH/lintian.log" 2>&1 || lintian_status=$?
# Lintian's note that it runs as root (make dist under sudo) is not a finding.
lintian_out=$(grep -v 'running with root privileges is not recommended' "$SCRATCH/lintian.log" || true)
[ "$lintian_status" = 0 ] || die "lintian: $lintian_out"
say "lintian: ${lintian_out:-clean} (tags explained in packaging/deb/lintian-overrides: $(grep -c '^beacond' packaging/deb/lintian-overrides))"

say "Depends: $(dpkg-deb -f "$deb" Depends)"
say "binary: $(stat -c %s "$bin") bytes as built, $(stat -c %s "$stage/usr/bin/beacond") stripped"
say "package: $deb ($(stat -c %s "$deb") bytes, installed size ${installed_size} KiB)"
say "done in $(( $(date +%s) - start ))s"
