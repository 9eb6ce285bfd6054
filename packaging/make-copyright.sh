#!/usr/bin/env bash
# Writes the package's /usr/share/doc/beacond/copyright (machine-readable format 1.0) to stdout:
# beacond's own licence (LICENSE) and what the statically linked binary embeds: the Swift
# runtime and Foundation from the toolchain, and every Swift package the build checked out
# (a superset of what is linked: the resolved dependency graph), each with its licence and
# its NOTICE (Apache-2.0 §4(d); the NOTICE files also name vendored code such as BoringSSL).
# Licence texts found as files in a checkout (also vendored ones under Sources/) are copied;
# Apache-2.0 points to /usr/share/common-licenses/Apache-2.0 (base-files), as Debian does.
#
#   packaging/make-copyright.sh CHECKOUTS_DIR [BINARY] > copyright   (called by scripts/dist.sh)
#   CHECKOUTS_DIR: SwiftPM's checkouts (.build-dist/checkouts); missing = beacond's part only
#   BINARY: the unstripped beacond; when its symbols show ICU's data (Foundation's
#           internationalization pulls it in), an ICU paragraph is added
#   SWIFT: the swift that built the binary (for its version line; default swift)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
CHECKOUTS=${1:?usage: packaging/make-copyright.sh CHECKOUTS_DIR}

# Prints FILE as a DEP-5 continuation block: each line indented, empty lines as " .".
indent() { sed -e 's/[[:space:]]*$//' -e 's/^$/./' -e 's/^/ /' "$1"; }
# Short licence name for a licence file.
licence_of() {
    if grep -q "Apache License" "$1" && grep -q "Version 2.0" "$1"; then echo Apache-2.0
    elif grep -q "Permission is hereby granted, free of charge" "$1"; then echo MIT
    elif grep -qi "Redistribution and use in source and binary forms" "$1"; then echo BSD-like
    else echo other; fi
}
# The "Copyright …" lines of a file, or a fallback.
holders() {
    local found
    found=$(grep -hE '^[[:space:]]*Copyright[[:space:]]' "$@" 2> /dev/null | grep -vF '[yyyy]' \
        | sed -e 's/^[[:space:]]*Copyright[[:space:]]*//' | sort -u | head -5 || true)
    [ -n "$found" ] && { echo "$found" | sed '2,$s/^/ /'; return; }
    echo "the $name authors"
}

cat <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: beacond
Comment: /usr/bin/beacond is linked statically against the Swift runtime, Foundation and the
 Swift packages listed below; its shared libraries (libc6, libbluetooth3, libsqlite3-0,
 libmosquitto1 …) are separate Debian packages with their own copyright files.

Files: *
Copyright: $(holders "$REPO/LICENSE")
License: MIT
$(indent "$REPO/LICENSE")

Files: swift-toolchain/*
Copyright: Apple Inc. and the Swift project authors
License: Apache-2.0 with Runtime Library Exception
Comment: The Swift standard library, runtime, Concurrency, Dispatch and Foundation, embedded
 by swift build --static-swift-stdlib ($(${SWIFT:-swift} --version 2> /dev/null | head -1 || echo "swift")).
 Runtime Library Exception to the Apache 2.0 License:
 .
 As an exception, if you use this Software to compile your source code and portions of this
 Software are embedded into the binary product as a result, you may redistribute such product
 without providing attribution as would otherwise be required by Sections 4(a), 4(b) and 4(d)
 of the License.
EOF

# (sed reads all of nm's output: grep -q would end the pipe early and pipefail would see SIGPIPE)
icu=""
if [ -n "${2:-}" ]; then
    icu=$(nm "$2" 2> /dev/null | sed -n 's/.* icudt\([0-9]*\)_dat$/\1/p' || true)
fi
if [ -n "$icu" ]; then
    icu=${icu%%$'\n'*}
    cat <<EOF

Files: swift-toolchain/icu/*
Copyright: Unicode, Inc. and others
License: Unicode-3.0
Comment: ICU $icu code and data (swift-foundation-icu), embedded through the toolchain's static
 Foundation (lib_FoundationICU.a). The licence text is at https://www.unicode.org/license.txt
 and in https://github.com/unicode-org/icu/blob/main/LICENSE.
EOF
fi

# Vendored C code without a licence file of its own in the checkout.
if [ -d "$CHECKOUTS/Yams/Sources/CYaml" ]; then
    cat <<'EOF'

Files: Yams/Sources/CYaml/*
Copyright: 2017-2020 Ingy döt Net
 2006-2016 Kirill Simonov
License: MIT
 Permission is hereby granted, free of charge, to any person obtaining a copy of
 this software and associated documentation files (the "Software"), to deal in
 the Software without restriction, including without limitation the rights to
 use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
 of the Software, and to permit persons to whom the Software is furnished to do
 so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included in all
 copies or substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 SOFTWARE.
Comment: libyaml, vendored by Yams as its CYaml module.
EOF
fi

apache_used=false
if [ -d "$CHECKOUTS" ]; then
    for dir in "$CHECKOUTS"/*/; do
        dir=${dir%/}
        name=$(basename "$dir")
        version=$(git -C "$dir" -c safe.directory="$dir" describe --tags --always 2> /dev/null || echo "?")
        licences=()
        while IFS= read -r f; do licences+=("$f"); done < <(
            { find "$dir" -maxdepth 1 -type f \( -iname 'LICENSE*' -o -iname 'COPYING*' \)
              find "$dir/Sources" -maxdepth 3 -type f \( -iname 'LICENSE*' -o -iname 'COPYING*' \) 2> /dev/null
            } | sort)
        notices=()
        while IFS= read -r f; do notices+=("$f"); done < <(find "$dir" -maxdepth 1 -type f -iname 'NOTICE*' | sort)
        [ ${#licences[@]} -gt 0 ] || { echo "make-copyright.sh: no licence file in $dir" >&2; exit 1; }
        for licence in "${licences[@]}"; do
            short=$(licence_of "$licence")
            rel=${licence#"$CHECKOUTS"/}
            echo
            if [ "$licence" = "${licences[0]}" ]; then echo "Files: $name/*"
            else echo "Files: $(dirname "$rel")/*"; fi
            if [ "$licence" = "${licences[0]}" ]; then
                echo "Copyright: $(holders "$licence" ${notices[@]+"${notices[@]}"})"
            else
                echo "Copyright: $(holders "$licence")"
            fi
            if [ "$short" = Apache-2.0 ]; then
                apache_used=true
                echo "License: Apache-2.0"
            else
                echo "License: $short"
                indent "$licence"
            fi
            if [ "$licence" = "${licences[0]}" ]; then
                echo "Comment: Swift package $name $version ($rel)."
                for notice in ${notices[@]+"${notices[@]}"}; do
                    echo " ."
                    echo " $(basename "$notice"):"
                    indent "$notice"
                done
            fi
        done
    done
fi

if $apache_used; then
    cat <<'EOF'

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file
 except in compliance with the License. You may obtain a copy of the License at
 https://www.apache.org/licenses/LICENSE-2.0
 .
 On Debian systems, the complete text of the Apache License, Version 2.0 can be found in
 /usr/share/common-licenses/Apache-2.0.
EOF
fi
