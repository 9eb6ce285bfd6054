#!/usr/bin/env python3
"""Checks that the README's module table names every target and says what each really imports.

Every target under Sources/, and the stock strategies' under Strategies/ (libraries, C modules, plugins, the `beacond` executable and the
crash harness; not the test targets) must be named in the first column of a row of the table under
"| module | owns | imports |". For each row, the targets named in its "imports" column (short
names for Beacon modules: `Core` for BeaconCore, `StrategyKit` for BeaconStrategyKit, …; other
targets by their full name, e.g. `CBluetooth`) must be exactly the targets that the row's own
targets import, less those targets themselves (a row may pair a C module with its Swift side):
`import X` in Swift sources, and in C sources an `#include` of a header another target exports
from its include/ folder. Other words in the column (stdlib, Yams, GRDB, SwiftNIO …) are not
checked. Also checks that Package.swift declares, for every target under Sources/, exactly the
targets it imports (no dead edge, nothing reached only through another module). Run by `make lint`.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
readme = (root / "README.md").read_text()
sources = root / "Sources"
# Each target's folder: Sources/NAME, but for the stock strategies, which live at the top level.
folders = {p.name: p for p in sources.iterdir() if p.is_dir()}
folders["BeaconStrategies"] = root / "Strategies"
targets = sorted(folders)
# How the imports column names a target: Beacon modules by their short name, the others in full.
by_word = {t[len("Beacon"):] if t.startswith("Beacon") else t: t for t in targets}
# The headers each C target exports (its include/ folder), by file name.
exported = {h.name: t for t in targets for h in (folders[t] / "include").glob("**/*.h")}


def word(target):
    return target[len("Beacon"):] if target.startswith("Beacon") else target


def imports(target):
    """The targets `target` uses: Swift imports and C includes of another target's headers."""
    found = set()
    for path in folders[target].rglob("*"):
        if path.suffix == ".swift":
            for match in re.finditer(r"^(?:@\w+\s+)*(?:\w+\s+)?import ([\w-]+)", path.read_text(), re.M):
                if match.group(1) in targets:
                    found.add(match.group(1))
        elif path.suffix in (".c", ".h") or path.name == "module.modulemap":
            for match in re.finditer(r'#include [<"]([^>"]+)[>"]', path.read_text()):
                header = pathlib.PurePath(match.group(1)).name
                if header in exported:
                    found.add(exported[header])
    found.discard(target)
    return found


table = re.search(r"^\| module \| owns \| imports \|\n\|[-|]+\|\n((?:\|.*\|\n)+)", readme, re.M)
if not table:
    sys.exit("README.md: no '| module | owns | imports |' table")
problems = []
seen = set()
for row in table.group(1).splitlines():
    cells = [c.strip() for c in row.strip("|").split("|")]
    named = [t for t in re.findall(r"`([\w-]+)`", cells[0]) if t in targets]
    if not named:
        problems.append(f"a row names no target: {cells[0]}")
        continue
    for target in named:
        if target in seen:
            problems.append(f"{target}: in two rows of the table")
    seen.update(named)
    said = {by_word[w] for w in re.findall(r"[\w-]+", cells[-1]) if w in by_word}
    actual = set().union(*(imports(t) for t in named)) - set(named)
    if said != actual:
        missing = ", ".join(word(t) for t in sorted(actual - said)) or "-"
        extra = ", ".join(word(t) for t in sorted(said - actual)) or "-"
        problems.append(f"{', '.join(named)}: the table says {sorted(map(word, said))}; "
                        f"it imports {sorted(map(word, actual))} (missing from the table: {missing}; not imported: {extra})")
# Package.swift: each target's declared dependencies on other targets of the package.
manifest = (root / "Package.swift").read_text()
for match in re.finditer(r'\.(?:target|executableTarget)\(\s*name: "([\w-]+)"(?:,\s*dependencies: \[)?', manifest):
    target = match.group(1)
    if target not in targets:
        continue
    declared = set()
    if match.group(0).endswith("["):
        depth, end = 1, match.end()
        while depth:
            depth += {"[": 1, "]": -1}.get(manifest[end], 0)
            end += 1
        body = manifest[match.end():end]
        declared = {name for name in re.findall(r'(?<![\w:] )"([\w-]+)"', body) if name in targets}
        declared -= {name for name in re.findall(r'package: "([\w-]+)"', body)}
    if declared != imports(target):
        missing = ", ".join(sorted(imports(target) - declared)) or "-"
        extra = ", ".join(sorted(declared - imports(target))) or "-"
        problems.append(f"Package.swift: {target} declares {sorted(declared)}; it imports {sorted(imports(target))} "
                        f"(undeclared: {missing}; declared, not imported: {extra})")
for target in targets:
    if target not in seen:
        problems.append(f"{target}: a target under Sources/ that is not in the README's module table")
if "--verbose" in sys.argv: print(*problems, sep="\n")
if problems:
    print("README.md module table does not match the targets and their imports:", *problems, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(f"README.md module table matches the imports of all {len(seen)} targets (Sources/, Strategies/)")
