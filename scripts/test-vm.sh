#!/bin/bash
# End-to-end test of `beacond scan` on a real BlueZ stack, without a radio.
#
# Builds beacond (release, Swift runtime linked statically), packs it with the shared vhci-vm
# tool (../shared/tools/vhci-vm, next to the repository) and boots its Debian VM, where BlueZ's
# btvirt makes two virtual LE controllers on one virtual radio: one advertises an iBeacon
# (E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major 1, minor 2, -59 dBm), the other is scanned with
#     beacond scan --adapter hci$VHCI_SCAN_INDEX --duration 6s --format jsonl
# and the JSON lines must contain that iBeacon (so must `beacond parse` of the --record file).
# Exit 0 = passed.
#
# Needs root (qemu, debootstrap) and the Debian mirror apt uses. About 3 minutes cold (VM image
# cached under /tmp/vhci-vm afterwards: about 1 minute), plus the release build.
#
# Env: VARIANT=le|dual   btvirt flavour the scan runs against (le: LE-only controllers, legacy
#                        scan commands; dual: BR/EDR+LE 5.x, extended scan commands if offered)
#      PAYLOAD_DIR       where to lay out the payload (default /tmp/beacond-vm-payload)
#      SKIP_BUILD=1      reuse the last release build
#      BEACOND_BINARY    test this binary instead of building one (CI: the one `make dist` built)
#      VM_MEM            the VM's memory in MiB (default 4096: the payload is unpacked in RAM)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
# ../shared next to the repository (a git worktree one level deeper also finds it); VHCI_VM overrides.
if [ -z "${VHCI_VM:-}" ]; then
    for candidate in "$REPO/../shared/tools/vhci-vm" "$REPO/../../shared/tools/vhci-vm"; do
        [ -x "$candidate/run.sh" ] && { VHCI_VM=$(cd "$candidate" && pwd); break; }
    done
fi
VHCI_VM=${VHCI_VM:-$REPO/../shared/tools/vhci-vm}
PAYLOAD_DIR=${PAYLOAD_DIR:-/tmp/beacond-vm-payload}
VARIANT=${VARIANT:-le}
say() { echo "[test-vm] $*"; }
start=$(date +%s)

[ -x "$VHCI_VM/run.sh" ] || { say "vhci-vm tool not found at $VHCI_VM (expected ../shared/tools/vhci-vm)"; exit 2; }
[ "$(id -u)" = 0 ] || { say "needs root (qemu, debootstrap): run with sudo"; exit 2; }

cd "$REPO"
if [ -n "${BEACOND_BINARY:-}" ]; then
    SKIP_BUILD=1
    say "testing $BEACOND_BINARY"
fi
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    t=$(date +%s)
    # Static Swift runtime makes the payload one file; without it make-swift-payload.sh copies
    # the runtime libraries the binary loads.
    if swift build -c release --product beacond --static-swift-stdlib > /tmp/beacond-vm-build.log 2>&1; then
        say "release build (static Swift runtime) in $(( $(date +%s) - t ))s"
    else
        tail -5 /tmp/beacond-vm-build.log
        say "static Swift runtime build failed; building with the shared runtime"
        swift build -c release --product beacond > /tmp/beacond-vm-build.log 2>&1 \
            || { tail -20 /tmp/beacond-vm-build.log; say "release build failed"; exit 1; }
        say "release build (shared Swift runtime) in $(( $(date +%s) - t ))s"
    fi
fi
BIN=${BEACOND_BINARY:-$(swift build -c release --show-bin-path)/beacond}
[ -x "$BIN" ] || { say "no binary at $BIN"; exit 1; }

# The command run inside the VM: scan (recording a btsnoop file too), check the JSON lines for
# the advertiser's iBeacon, check that `beacond parse` finds it in the recording as well, then
# interrupt a scan with SIGINT and check that it disabled scanning and exited 0, and finally
# run the daemon on the radio (active scan, its interval and window, a recording) until a dwell
# alert on that iBeacon is delivered (check-run), provoke the user-facing errors on the real kernel (no such adapter, no permission, adapter down)
# and take the adapter down and up under a running scan (watchdog, backoff, reopen), and finally
# run a site gateway with `site.advertise: true` on the scanned controller while `beacond scan`
# on the other one must hear the gateway's identity (check-advertise); last, the advertiser moves to
# a phone's resolvable private address, which `beacond run` resolves with its key (check-rpa).
"$VHCI_VM/make-swift-payload.sh" "$PAYLOAD_DIR" \
    'beacond scan --adapter hci$VHCI_SCAN_INDEX --duration 6s --format jsonl --record /tmp/scan.btsnoop > /tmp/scan.jsonl; check-ibeacon /tmp/scan.jsonl; beacond parse /tmp/scan.btsnoop > /tmp/recorded.jsonl; check-ibeacon /tmp/recorded.jsonl; check-sigint; check-run; check-errors; check-recovery; check-advertise; check-rpa' \
    "$BIN"
# make-swift-payload.sh copies the system libraries the VM image lacks only when the image's
# rootfs is already built (it compares with /tmp/vhci-vm/rootfs); on a fresh machine it is not
# built yet, and beacond would not start in the VM (libmosquitto, libsqlite3 …). Copy every
# library beacond loads that is not in Debian's minimal image + BlueZ ourselves, under usr/
# (the image is merged-/usr).
ldd "$BIN" | awk '/=> \//{print $3}' | while read -r lib; do
    case "$lib" in /lib/x86_64-linux-gnu/*|/usr/lib/x86_64-linux-gnu/*) ;; *) continue ;; esac
    case "$(basename "$lib")" in
        libc.so.*|libm.so.*|libgcc_s.so.*|libstdc++.so.*|libz.so.*|libbluetooth.so.*) continue ;;
    esac
    dest=/usr${lib#/usr}
    [ -e "$PAYLOAD_DIR$dest" ] && continue
    mkdir -p "$PAYLOAD_DIR$(dirname "$dest")"
    cp -L "$lib" "$PAYLOAD_DIR$dest"
    say "payload: $(basename "$lib") (not in the VM image)"
done
cat > "$PAYLOAD_DIR/opt/payload/bin/check-ibeacon" <<'CHECK'
#!/bin/sh
# Exit 0 iff a JSON line of `beacond scan` carries the vhci-vm advertiser's iBeacon.
file=$1
echo "$file: $(wc -l < "$file") line(s); first one:"
head -n 1 "$file"
hits=$(awk 'tolower($0) ~ /"uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0"/ && /"major":1[,}]/ && /"minor":2[,}]/ && /"power":-59[,}]/' "$file" | wc -l)
if [ "$hits" -gt 0 ]; then
    echo "PASS: $hits line(s) with iBeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 major 1 minor 2 power -59"
    exit 0
fi
echo "FAIL: no line with iBeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 major 1 minor 2 power -59"
exit 1
CHECK
cat > "$PAYLOAD_DIR/opt/payload/bin/check-sigint" <<'CHECK'
#!/bin/sh
# Ctrl-C must stop `beacond scan` cleanly: scanning disabled, filter restored, exit status 0.
status=0
timeout --foreground -s INT --preserve-status 3 beacond scan --adapter "hci$VHCI_SCAN_INDEX" > /tmp/sigint.jsonl 2> /tmp/sigint.log || status=$?
cat /tmp/sigint.log
if [ "$status" = 0 ] && grep -q "scanning disabled, previous socket filter restored" /tmp/sigint.log; then
    echo "PASS: SIGINT stopped beacond scan cleanly ($(wc -l < /tmp/sigint.jsonl) line(s) before)"
    exit 0
fi
echo "FAIL: after SIGINT beacond scan exited $status without an orderly stop"
exit 1
CHECK
cat > "$PAYLOAD_DIR/opt/payload/bin/check-errors" <<'CHECK'
#!/bin/sh
# The errors a user meets, on a real kernel: exit status and the advice in the message.
fail=0
expect() {   # expect NAME STATUS TEXT -- COMMAND...
    name=$1 want=$2 text=$3; shift 4
    status=0; "$@" > /dev/null 2> /tmp/err.log || status=$?
    if [ "$status" = "$want" ] && grep -qF -- "$text" /tmp/err.log; then echo "PASS[$name]: exit $status: $(head -c 200 /tmp/err.log)"
    else echo "FAIL[$name]: exit $status (want $want, text '$text'):"; cat /tmp/err.log; fail=1; fi
}
expect no-such-adapter 69 "Adapters present: hci" -- beacond scan --adapter hci9 --duration 1s
expect no-permission 77 'sudo setcap cap_net_raw+ep $(command -v beacond)' -- \
    setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
    /opt/payload/bin/beacond scan --adapter "hci$VHCI_SCAN_INDEX" --duration 1s
hciconfig "hci$VHCI_SCAN_INDEX" down
expect adapter-down 75 "sudo hciconfig hci$VHCI_SCAN_INDEX up" -- beacond scan --adapter "hci$VHCI_SCAN_INDEX" --duration 1s
hciconfig "hci$VHCI_SCAN_INDEX" up
exit $fail
CHECK
cat > "$PAYLOAD_DIR/opt/payload/bin/check-recovery" <<'CHECK'
#!/bin/sh
# Adapter down for 4 s under a running scan: the watchdog (2 s) closes it, reopen attempts back
# off while it is down, scanning resumes once it is up, and reports arrive again.
hci="hci$VHCI_SCAN_INDEX"
beacond scan --adapter "$hci" --duration 14s --watchdog 2s > /tmp/recovery.jsonl 2> /tmp/recovery.log &
pid=$!
sleep 3; hciconfig "$hci" down
sleep 4; hciconfig "$hci" up; up=$(date +%s)
status=0; wait $pid || status=$?
cat /tmp/recovery.log
after=$(awk -v up="$up" -F'"time":' 'NF > 1 { split($2, t, ","); if (t[1] + 0 > up) n++ } END { print n + 0 }' /tmp/recovery.jsonl)
if [ "$status" = 0 ] && grep -q "adapter reopened" /tmp/recovery.log && [ "$after" -gt 0 ]; then
    echo "PASS[recovery]: reopened after the adapter came back; $after report(s) after that"
    exit 0
fi
echo "FAIL[recovery]: exit $status, $after report(s) after the adapter came back"
exit 1
CHECK
cat > "$PAYLOAD_DIR/opt/payload/bin/check-run" <<'CHECK'
#!/bin/sh
# The daemon on the radio: `beacond run` with an active scan, its interval and window, and a
# recording, on the scanned controller; a 2 s dwell on the advertiser's iBeacon must be delivered
# to the jsonl sink, SIGINT must stop it with status 0, and the recording must parse back to the
# same iBeacon.
cat > /tmp/run.yaml <<YAML
source: {hci: hci$VHCI_SCAN_INDEX, active: true, interval: 50ms, window: 40ms, record: /tmp/run.btsnoop}
state: /tmp/run-state.sqlite
sinks: [{type: jsonl, path: /tmp/run-alerts.jsonl}]
alerts:
  - id: vm-dwell
    match: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1, minor: 2}
    strategy: time
    parameters: {dwell: 2s, gap: 5s, maxTimeBeforeReset: 30s}
YAML
beacond check-config /tmp/run.yaml || { echo "FAIL[run]: check-config refused /tmp/run.yaml"; exit 1; }
status=0
# --foreground: without it timeout signals the child and then its whole process group, so the
# daemon gets SIGINT twice; on a slow (TCG) VM it may handle them apart and take the second for
# "exit at once" (status 130, the recording unflushed).
timeout --foreground -s INT --preserve-status 10 beacond run --config /tmp/run.yaml 2> /tmp/run.log || status=$?
tail -n 5 /tmp/run.log
fail=0
if [ "$status" = 0 ]; then echo "PASS[run]: SIGINT stopped beacond run with status 0"
else echo "FAIL[run]: beacond run exited $status after SIGINT"; fail=1; fi
if grep -q '"event":"delivered","alert":"vm-dwell"' /tmp/run-alerts.jsonl; then
    echo "PASS[run]: the dwell alert on the advertiser's iBeacon was delivered: $(grep -c vm-dwell /tmp/run-alerts.jsonl) line(s)"
else echo "FAIL[run]: no delivered vm-dwell alert in /tmp/run-alerts.jsonl:"; cat /tmp/run-alerts.jsonl; fail=1; fi
beacond parse /tmp/run.btsnoop > /tmp/run-recorded.jsonl && check-ibeacon /tmp/run-recorded.jsonl || fail=1
exit $fail
CHECK
cat > "$PAYLOAD_DIR/opt/payload/bin/check-advertise" <<'CHECK'
#!/bin/sh
# Gateways that calibrate each other: `beacond run` with site.advertise: true on the scanned
# controller advertises SiteGatewayBeacon.identity(site: vm-site, gateway: vm-gw) while it scans
# (no broker in the VM: the gateway drops its reports and goes on); `beacond scan` on the other
# controller must hear that identity. btvirt reports a legacy advertiser when a scan is enabled
# (and an extended one every interval), so the scan starts after the gateway says it advertises.
# SIGINT must stop the gateway with status 0 after switching advertising off.
cat > /tmp/advertise.yaml <<YAML
source: {hci: hci$VHCI_SCAN_INDEX}
site: {name: vm-site, gateway: vm-gw, advertise: true, advertisePower: -61}
sinks: [{type: jsonl, path: /tmp/advertise-alerts.jsonl}]
alerts:
  - id: vm-dwell
    match: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1, minor: 2}
    strategy: time
    parameters: {dwell: 2s, gap: 5s, maxTimeBeforeReset: 30s}
YAML
beacond check-config /tmp/advertise.yaml || { echo "FAIL[advertise]: check-config refused /tmp/advertise.yaml"; exit 1; }
beacond run --config /tmp/advertise.yaml 2> /tmp/advertise.log &
pid=$!
i=0
while [ $i -lt 40 ] && ! grep -q "advertising ibeacon:" /tmp/advertise.log; do sleep 0.25; i=$((i+1)); done
line=$(grep -o "advertising ibeacon:[0-9A-Fa-f-]*:[0-9]*:[0-9]*" /tmp/advertise.log | head -n 1)
beacond scan --adapter "hci$VHCI_ADV_INDEX" --duration 4s --format jsonl > /tmp/advertise-scan.jsonl 2> /tmp/advertise-scan.log
kill -INT $pid; status=0; wait $pid || status=$?
cat /tmp/advertise.log | grep -v '^$' | tail -n 12
fail=0
if [ -z "$line" ]; then
    echo "FAIL[advertise]: the gateway did not log that it advertises"; exit 1
fi
uuid=$(echo "$line" | cut -d: -f2 | tr 'A-F' 'a-f'); major=$(echo "$line" | cut -d: -f3); minor=$(echo "$line" | cut -d: -f4)
echo "gateway advertises uuid $uuid major $major minor $minor (measured power -61)"
hits=$(awk -v u="\"uuid\":\"$uuid\"" -v M="\"major\":$major[,}]" -v m="\"minor\":$minor[,}]" \
    'index(tolower($0), u) && $0 ~ M && $0 ~ m && /"power":-61[,}]/' /tmp/advertise-scan.jsonl | wc -l)
if [ "$hits" -gt 0 ]; then echo "PASS[advertise]: beacond scan on hci$VHCI_ADV_INDEX heard the gateway's identity in $hits line(s)"
else echo "FAIL[advertise]: no line with the gateway's identity among $(wc -l < /tmp/advertise-scan.jsonl) line(s):"; head -n 5 /tmp/advertise-scan.jsonl; cat /tmp/advertise-scan.log; fail=1; fi
if [ "$status" = 0 ] && grep -q "advertising stopped" /tmp/advertise.log; then echo "PASS[advertise]: SIGINT stopped advertising and the gateway (status 0)"
else echo "FAIL[advertise]: after SIGINT the gateway exited $status without stopping advertising"; fail=1; fi
exit $fail
CHECK
cat > "$PAYLOAD_DIR/opt/payload/bin/check-rpa" <<'CHECK'
#!/bin/sh
# A phone on the radio: the advertiser takes the Core specification's sample resolvable private
# address 70:81:94:0D:FB:AA (of the key ec0234a357c8ad05341010a60a397d9b, Vol 3, Part H, 2.2.2)
# and advertises a phone's frame (flags and Apple's manufacturer data, no beacon) from it as a
# random address. `beacond run` with that key enrolled as vm-phone must deliver a dwell alert on
# device:vm-phone, and `beacond irk check` must find the key's order in the run's recording.
ADV=hci$VHCI_ADV_INDEX
# The payload's loop switches advertising off and on every 0.5 s, and a controller refuses these
# settings (Command Disallowed) while it advertises: each is sent, with advertising off, until the
# controller's Command Complete says 00.
# (Under TCG a CI run once got 40 replies in a row that were not this command's success — the
# last "01 01 01 04" — and passed on the next run: the reply must now name the command's opcode,
# it is tried for up to 10 s, and the last reply is printed whole if it never came.)
send() {
    command="$*"
    opcode=$(printf '%02X %02X' $(( $2 & 0xFF )) $(( ($1 << 2) | ($2 >> 8) )))
    i=0
    while [ $i -lt 100 ]; do
        hcitool -i $ADV cmd 0x08 0x000A 00 > /dev/null
        reply=$(hcitool -i $ADV cmd $command)
        set -- $(printf '%s\n' "$reply" | tail -n 1)
        [ "${2:-} ${3:-}" = "$opcode" ] && [ "${4:-}" = "00" ] && return 0
        i=$((i+1)); sleep 0.1
    done
    echo "FAIL[rpa]: the advertiser refused $command (opcode $opcode) 100 times; its last reply:"
    printf '%s\n' "$reply"; exit 1
}
# LE Set Random Address (little-endian), LE Set Advertising Parameters (100 ms, ADV_NONCONN_IND,
# own address random), LE Set Advertising Data (11 bytes, padded to 31).
send 0x08 0x0005 AA FB 0D 94 81 70
send 0x08 0x0006 A0 00 A0 00 03 01 00 00 00 00 00 00 00 07 00
send 0x08 0x0008 0B 02 01 1A 07 FF 4C 00 10 02 0B 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
hcitool -i $ADV cmd 0x08 0x000A 01 > /dev/null
echo "the advertiser is a phone at 70:81:94:0D:FB:AA (random)"
printf 'ec0234a357c8ad05341010a60a397d9b\n' > /tmp/vm-phone.irk
chmod 600 /tmp/vm-phone.irk
# One address only (it never rotates here): no second address to wait for.
cat > /tmp/rpa.yaml <<YAML
source: {hci: hci$VHCI_SCAN_INDEX, record: /tmp/rpa.btsnoop}
state: /tmp/rpa-state.sqlite
devices: [{id: vm-phone, irk: /tmp/vm-phone.irk, corroborate: false}]
sinks: [{type: jsonl, path: /tmp/rpa-alerts.jsonl}]
alerts:
  - {id: vm-phone-here, match: {device: vm-phone}, strategy: time, parameters: {dwell: 2s, gap: 5s, maxTimeBeforeReset: 30s}}
YAML
beacond check-config /tmp/rpa.yaml || { echo "FAIL[rpa]: check-config refused /tmp/rpa.yaml"; exit 1; }
# btvirt reports an advertiser only when its advertising is switched on. The environment's loop
# does that for the iBeacon; once, that loop went quiet after the commands above (one report in
# 10 s), so this check switches it too, for as long as the daemon runs.
( while :; do
    hcitool -i $ADV cmd 0x08 0x000A 00 > /dev/null 2>&1
    hcitool -i $ADV cmd 0x08 0x000A 01 > /dev/null 2>&1
    sleep 0.3
done ) &
toggler=$!
beacond run --config /tmp/rpa.yaml 2> /tmp/rpa.log &
daemon=$!
# Until the alert is delivered (the event this check is about), at most 60 s on a slow VM.
i=0
while [ $i -lt 600 ] && ! grep -q '"event":"delivered","alert":"vm-phone-here"' /tmp/rpa-alerts.jsonl 2> /dev/null; do
    sleep 0.1; i=$((i+1))
done
kill -INT $daemon
status=0
wait $daemon || status=$?
kill $toggler 2> /dev/null; wait $toggler 2> /dev/null
tail -n 5 /tmp/rpa.log
fail=0
if [ "$status" = 0 ] && grep -q '"event":"delivered","alert":"vm-phone-here"' /tmp/rpa-alerts.jsonl \
    && grep -q '"device":"vm-phone"' /tmp/rpa-alerts.jsonl; then
    echo "PASS[rpa]: the phone's private address resolved to device:vm-phone, and its dwell alert was delivered"
else
    echo "FAIL[rpa]: no delivered vm-phone-here alert on device:vm-phone (status $status):"; cat /tmp/rpa-alerts.jsonl; fail=1
fi
if grep -q "ec0234a357c8ad05341010a60a397d9b\|9b7d390aa6101034" /tmp/rpa.log /tmp/rpa-alerts.jsonl; then
    echo "FAIL[rpa]: the key appears in the log or the events"; fail=1
fi
beacond irk check /tmp/vm-phone.irk /tmp/rpa.btsnoop > /tmp/irk-check.txt 2>&1; irk=$?
cat /tmp/irk-check.txt
if [ "$irk" = 0 ] && grep -q "msb-first.*resolves [1-9]" /tmp/irk-check.txt; then
    echo "PASS[rpa]: beacond irk check finds the key msb-first in the recording"
else echo "FAIL[rpa]: beacond irk check exited $irk"; fail=1; fi
exit $fail
CHECK
chmod +x "$PAYLOAD_DIR/opt/payload/bin/check-ibeacon" "$PAYLOAD_DIR/opt/payload/bin/check-sigint" \
    "$PAYLOAD_DIR/opt/payload/bin/check-errors" "$PAYLOAD_DIR/opt/payload/bin/check-recovery" \
    "$PAYLOAD_DIR/opt/payload/bin/check-run" "$PAYLOAD_DIR/opt/payload/bin/check-advertise" \
    "$PAYLOAD_DIR/opt/payload/bin/check-rpa"
# Debian 12 is merged-/usr: /lib and /lib64 are symlinks into /usr. Libraries the payload tool
# copied to lib/ (libsqlite3, libmosquitto) would replace the /lib symlink with a directory when
# the payload is unpacked over the image, and the VM would lose its dynamic loader.
for dir in lib lib64; do
    if [ -d "$PAYLOAD_DIR/$dir" ] && [ ! -L "$PAYLOAD_DIR/$dir" ]; then
        mkdir -p "$PAYLOAD_DIR/usr/$dir"
        cp -a "$PAYLOAD_DIR/$dir/." "$PAYLOAD_DIR/usr/$dir/"
        rm -rf "${PAYLOAD_DIR:?}/$dir"
    fi
done
# The initramfs is unpacked into the VM's memory: keep the payload small (debug symbols of a
# statically linked release binary are most of its size) and give the VM room (VM_MEM MiB).
strip --strip-unneeded "$PAYLOAD_DIR/opt/payload/bin/beacond"
say "payload binary stripped to $(du -h --apparent-size "$PAYLOAD_DIR/opt/payload/bin/beacond" | cut -f1)"
# make-swift-payload's run.sh does not put the payload's bin on PATH.
sed -i '2a export PATH=/opt/payload/bin:$PATH' "$PAYLOAD_DIR/opt/payload/run.sh"

status=0
PAYLOAD_ROOT="$PAYLOAD_DIR" VARIANTS="$VARIANT" EXTRA_APPEND="vhci_payload_variant=$VARIANT" MEM="${VM_MEM:-4096}" \
    "$VHCI_VM/run.sh" || status=$?
say "$( [ $status = 0 ] && echo PASS || echo FAIL ) (variant $VARIANT) in $(( $(date +%s) - start ))s"
exit $status
