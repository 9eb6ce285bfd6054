#!/usr/bin/env bash
# Installs the package `make dist` built into a clean Debian 12 root and checks what it installed
# (make test-dist; CI). Exit 0 = passed; every failed check is printed as FAIL[name] with what
# was seen, and the script exits 1.
#
# 1. A pristine bookworm root (debootstrap --variant=minbase), cached as a tarball in
#    .build-dist/ (first run about 1.5 minutes; REFRESH_ROOT=1 makes it again). Every run unpacks
#    a fresh copy, mounts /proc, copies resolv.conf, and unmounts and deletes it on exit.
# 2. dpkg -i .build-dist/beacond_VERSION_ARCH.deb (VERSION from scripts/version.sh), then
#    apt-get -f install -y inside the root: the Depends must be enough on a minimal system.
# 3. In the root: beacond --version = VERSION; beacond check-config /etc/beacond/gateway.yaml;
#    the user and group beacond; the unit, configuration (conffile, root:beacond 0640), state
#    and log directories, binary mode (root:beacond 0750) and its CAP_NET_RAW file capability;
#    a member of the group may run beacond, another user may not; dpkg --verify; then systemd
#    is installed in the root and `systemd-analyze verify` checks the packaged unit against the
#    installed /usr/bin/beacond (its output must not mention beacond).
# 4. Enable the unit offline, reinstall over itself (the upgrade path: edited conffile kept,
#    capability set again, still enabled), remove (configuration and state kept, binary gone),
#    purge (binary, unit, configuration, state, logs and enable symlinks gone; the user stays).
#
# Needs root (chroot, mount) and the Debian mirror; installs debootstrap with apt-get if missing.
# Downloaded .debs are kept in .build-dist/apt-archives for the next run.
#
#   sudo scripts/test-dist.sh
# Env: BEACOND_DEB=PATH   test this package (its Version: is the expected --version)
#      DEBIAN_MIRROR      default http://deb.debian.org/debian
#      REFRESH_ROOT=1     rebuild the cached pristine root
#      KEEP_ROOT=1        leave the root (path printed) for inspection; /proc is still unmounted
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
CACHE=$REPO/.build-dist
SUITE=bookworm
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
say() { echo "[test-dist] $*"; }
die() { echo "[test-dist] FAIL: $*" >&2; exit 1; }
start=$(date +%s)
phase=$start
lap() { local now; now=$(date +%s); say "$1 ($(( now - phase ))s)"; phase=$now; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mount): run with sudo"
arch=$(dpkg --print-architecture)
if [ -n "${BEACOND_DEB:-}" ]; then
    deb=$(cd "$(dirname "$BEACOND_DEB")" && pwd)/$(basename "$BEACOND_DEB")
    [ -f "$deb" ] || die "BEACOND_DEB=$BEACOND_DEB: no such file"
    version=$(dpkg-deb -f "$deb" Version)
else
    version=$("$REPO/scripts/version.sh")
    deb=$CACHE/beacond_${version}_${arch}.deb
    [ -f "$deb" ] || die "no $deb: run make dist first (scripts/version.sh says $version; the tree changed since?)"
fi
say "package $(basename "$deb"), expecting version $version"

export DEBIAN_FRONTEND=noninteractive
if ! command -v debootstrap > /dev/null; then
    say "installing debootstrap"
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends debootstrap > /dev/null
fi

# 1. The pristine root, cached.
mkdir -p "$CACHE"
pristine=$CACHE/rootfs-$SUITE-minbase-$arch.tar
if [ ! -s "$pristine" ] || [ "${REFRESH_ROOT:-0}" = 1 ]; then
    build=$(mktemp -d "${TMPDIR:-/tmp}/beacond-debootstrap.XXXXXX")
    say "debootstrap --variant=minbase $SUITE ($MIRROR) → $pristine"
    if ! debootstrap --variant=minbase --arch="$arch" "$SUITE" "$build" "$MIRROR" > "$CACHE/debootstrap.log" 2>&1; then
        tail -20 "$CACHE/debootstrap.log" >&2
        for m in proc sys dev/pts dev; do umount "$build/$m" 2> /dev/null || true; done
        die "debootstrap failed (log: $CACHE/debootstrap.log; $build left for inspection)"
    fi
    chmod 0755 "$build"
    tar -C "$build" --numeric-owner -cpf "$pristine.tmp" .
    mv "$pristine.tmp" "$pristine"
    rm -rf "$build"
    lap "pristine root cached ($(du -h "$pristine" | cut -f1))"
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/beacond-test-dist.XXXXXX")
cleanup() {
    local status=$?
    if mountpoint -q "$root/proc"; then umount "$root/proc" || umount -l "$root/proc" || true; fi
    # Keep the downloaded packages for the next run.
    if [ -d "$root/var/cache/apt/archives" ]; then
        cp -n "$root"/var/cache/apt/archives/*.deb "$CACHE/apt-archives/" 2> /dev/null || true
    fi
    if findmnt -rn -o TARGET | grep -q "^$root"; then
        say "warning: something is still mounted under $root; not deleting it"
    elif [ "${KEEP_ROOT:-0}" = 1 ]; then
        say "root kept: $root"
    else
        rm -rf "$root"
    fi
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM
tar -C "$root" --numeric-owner -xpf "$pristine"
chmod 0755 "$root"   # mktemp's 0700 (also on the tarball's ./) would keep the unprivileged checks out
mount -t proc proc "$root/proc"
rm -f "$root/etc/resolv.conf"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
[ -c "$root/dev/null" ] || { rm -f "$root/dev/null"; mknod -m 0666 "$root/dev/null" c 1 3; }
# Nothing starts services inside the root.
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
mkdir -p "$CACHE/apt-archives"
cp -al "$CACHE"/apt-archives/*.deb "$root/var/cache/apt/archives/" 2> /dev/null \
    || cp -a "$CACHE"/apt-archives/*.deb "$root/var/cache/apt/archives/" 2> /dev/null || true
cp "$deb" "$root/tmp/"
debname=$(basename "$deb")
lap "fresh root at $root"

# Runs a command inside the root with a clean environment.
in_root() {
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive "$@"
}
# Runs a command inside the root, its output to $log; on failure prints the log's tail and dies.
log=$CACHE/test-dist-step.log
step() {
    local what=$1; shift
    if ! in_root "$@" > "$log" 2>&1; then
        tail -25 "$log" >&2
        die "$what: '$*' failed"
    fi
}

failures=()
pass() { say "PASS[$1] $2"; }
fail() { echo "[test-dist] FAIL[$1] $2" >&2; failures+=("$1"); }
# expect NAME WANT GOT: pass when equal.
expect() { if [ "$2" = "$3" ]; then pass "$1" "$3"; else fail "$1" "want '$2', got '$3'"; fi; }
# stat_of PATH: "owner:group mode" inside the root, or "missing".
stat_of() { in_root stat -c '%U:%G %a' "$1" 2> /dev/null || echo missing; }
absent() { if [ -e "$root$2" ] || [ -L "$root$2" ]; then fail "$1" "$2 is still there"; else pass "$1" "$2 gone"; fi; }

# 2. Install: dpkg leaves the package unconfigured for want of its dependencies; apt-get -f
# installs them and configures it.
step "apt-get update" apt-get update -qq
in_root dpkg -i "/tmp/$debname" > "$log" 2>&1 || true
step "apt-get -f install (the Depends)" apt-get -f install -y --no-install-recommends
pulled=$(sed -n 's/^Setting up \([^: ]*\).*/\1/p' "$log" | grep -v '^beacond$' | tr '\n' ' ')
status=$(in_root dpkg-query -W -f='${Status} ${Version}' beacond 2>&1 || true)
[ "$status" = "install ok installed $version" ] || die "beacond is not installed after apt-get -f install: $status"
lap "installed beacond $version; apt-get pulled in: $pulled"

# 3. What the package installed.
# `VERSION (commit SHA)`: the version is its first word.
expect version "$version" "$(in_root beacond --version 2>&1 | cut -d' ' -f1 || true)"
if out=$(in_root beacond check-config /etc/beacond/gateway.yaml 2>&1); then pass check-config "$out"
else fail check-config "$out"; fi
user=$(in_root getent passwd beacond || true)
IFS=: read -r _ _ uid gid _ home shell <<< "${user:-x:x:x:x:x:x:x}"
if [ -n "$user" ] && [ "$uid" -lt 1000 ] && [ "$home" = /var/lib/beacond ] && [ "$shell" = /usr/sbin/nologin ]; then
    pass user "$user"
else
    fail user "want a system user beacond (uid < 1000, home /var/lib/beacond, shell /usr/sbin/nologin), got '$user'"
fi
expect group "beacond $gid" "$(in_root getent group beacond | cut -d: -f1,3 | tr : ' ')"
unit=/lib/systemd/system/beacond.service
if grep -q '^ExecStart=/usr/bin/beacond run --config /etc/beacond/gateway.yaml$' "$root$unit" 2> /dev/null; then
    pass unit "$unit (ExecStart=/usr/bin/beacond run …)"
else
    fail unit "$unit missing or without ExecStart=/usr/bin/beacond run --config /etc/beacond/gateway.yaml"
fi
expect binary-mode "root:beacond 750" "$(stat_of /usr/bin/beacond)"
expect capability "/usr/bin/beacond cap_net_raw=ep" "$(in_root getcap /usr/bin/beacond 2>&1 || true)"
expect config-mode "root:beacond 640" "$(stat_of /etc/beacond/gateway.yaml)"
expect conffile "/etc/beacond/gateway.yaml" \
    "$(in_root dpkg-query -W -f='${Conffiles}' beacond | awk '{print $1}' | tr -d '\n')"
expect state-dir "beacond:beacond 750" "$(stat_of /var/lib/beacond)"
expect log-dir "beacond:beacond 750" "$(stat_of /var/log/beacond)"
for f in README.md Docs/Daemon.md Docs/Install.md copyright; do
    if [ -s "$root/usr/share/doc/beacond/$f" ]; then pass doc "/usr/share/doc/beacond/$f"
    else fail doc "/usr/share/doc/beacond/$f missing or empty"; fi
done
# The manual page (its NAME section names beacond) and the shell completions.
if zgrep -q '^\.Nm beacond' "$root/usr/share/man/man1/beacond.1.gz" 2> /dev/null; then pass man "beacond(1)"
else fail man "/usr/share/man/man1/beacond.1.gz missing or not beacond's manual"; fi
for f in bash-completion/completions/beacond zsh/vendor-completions/_beacond fish/vendor_completions.d/beacond.fish; do
    if grep -q 'run' "$root/usr/share/$f" 2> /dev/null; then pass completion "/usr/share/$f"
    else fail completion "/usr/share/$f missing or without the subcommands"; fi
done
expect group-member-runs "$version" \
    "$(chroot --userspec="$uid:$gid" "$root" /usr/bin/env -i /usr/bin/beacond --version 2>&1 | cut -d' ' -f1 || true)"
# Another user (nobody) may run programs in the root, but not beacond (exit 126: permission denied).
other=0
if chroot --userspec=65534:65534 "$root" /usr/bin/env -i /bin/true; then
    chroot --userspec=65534:65534 "$root" /usr/bin/env -i /usr/bin/beacond --version > /dev/null 2>&1 || other=$?
    expect others-cannot-run "exit 126" "exit $other"
else
    fail others-cannot-run "nobody cannot run /bin/true in the root: the check would prove nothing"
fi
if out=$(in_root dpkg --verify beacond 2>&1) && [ -z "$out" ]; then pass dpkg-verify "md5sums match"
else fail dpkg-verify "$out"; fi
lap "installed files checked"

# systemd-analyze verify, inside the root: the packaged unit against the installed binary.
step "apt-get install systemd" apt-get install -y --no-install-recommends systemd
verify_status=0
in_root systemd-analyze verify "$unit" > "$log" 2>&1 || verify_status=$?
if [ "$verify_status" = 0 ] && ! grep -qi beacond "$log"; then
    pass systemd-analyze "systemd-analyze verify $unit: exit 0, nothing about beacond$( [ -s "$log" ] && echo " ($(wc -l < "$log") line(s) about other units)")"
else
    fail systemd-analyze "systemd-analyze verify $unit: exit $verify_status: $(cat "$log")"
fi
# The same check must notice a unit whose binary is not there (else the pass above means nothing).
sed 's|^ExecStart=/usr/bin/beacond |ExecStart=/usr/bin/beacond-missing |' "$root$unit" > "$root/etc/systemd/system/beacond-broken.service"
broken_status=0
in_root systemd-analyze verify /etc/systemd/system/beacond-broken.service > "$log" 2>&1 || broken_status=$?
rm -f "$root/etc/systemd/system/beacond-broken.service"
if [ "$broken_status" != 0 ] && grep -q beacond-missing "$log"; then
    pass systemd-analyze-control "a unit with a missing ExecStart binary is refused: $(grep -m1 beacond-missing "$log")"
else
    fail systemd-analyze-control "systemd-analyze verify accepted a unit whose ExecStart binary is missing (exit $broken_status): $(cat "$log")"
fi
lap "unit verified"

# 4. Upgrade (the same package over itself), remove, purge.
step "systemctl enable (offline)" systemctl enable beacond.service
wants=/etc/systemd/system/multi-user.target.wants/beacond.service
if [ -L "$root$wants" ]; then pass enable "$wants"; else fail enable "no $wants after systemctl enable"; fi
echo "# edited by test-dist" >> "$root/etc/beacond/gateway.yaml"
step "dpkg -i over the installed package" dpkg -i --force-confold "/tmp/$debname"
if tail -1 "$root/etc/beacond/gateway.yaml" | grep -q 'edited by test-dist'; then pass upgrade-conffile "edit kept"
else fail upgrade-conffile "the edited /etc/beacond/gateway.yaml was replaced"; fi
expect upgrade-capability "/usr/bin/beacond cap_net_raw=ep" "$(in_root getcap /usr/bin/beacond 2>&1 || true)"
expect upgrade-binary-mode "root:beacond 750" "$(stat_of /usr/bin/beacond)"
if [ -L "$root$wants" ]; then pass upgrade-enabled "still enabled"; else fail upgrade-enabled "$wants gone after the upgrade"; fi

step "dpkg --remove" dpkg --remove beacond
absent remove-binary /usr/bin/beacond
absent remove-unit "$unit"
if [ -f "$root/etc/beacond/gateway.yaml" ]; then pass remove-keeps-config "/etc/beacond/gateway.yaml kept"
else fail remove-keeps-config "/etc/beacond/gateway.yaml gone after remove (only purge may delete it)"; fi
if [ -d "$root/var/lib/beacond" ]; then pass remove-keeps-state "/var/lib/beacond kept"
else fail remove-keeps-state "/var/lib/beacond gone after remove"; fi

step "dpkg --purge" dpkg --purge beacond
absent purge-binary /usr/bin/beacond
absent purge-config /etc/beacond
absent purge-state /var/lib/beacond
absent purge-logs /var/log/beacond
absent purge-enable-symlink "$wants"
left=$(in_root dpkg-query -W -f='${Status}' beacond 2> /dev/null | grep -v 'not-installed' || true)
if [ -z "$left" ]; then pass purge-status "dpkg knows beacond as not installed"; else fail purge-status "dpkg still lists beacond: $left"; fi
lap "upgrade, remove and purge checked"

if [ ${#failures[@]} -gt 0 ]; then
    echo "[test-dist] FAILED: ${failures[*]} ($(( $(date +%s) - start ))s)" >&2
    exit 1
fi
say "PASS: beacond $version installs, runs, verifies and purges cleanly in a fresh $SUITE root ($(( $(date +%s) - start ))s)"
