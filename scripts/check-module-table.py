#!/usr/bin/env python3
"""Checks that the README's module table says what each module really imports.

For every row of the table under "| module | owns | imports |", the modules named in the
"imports" column (short names: `Core` for BeaconCore, `StrategyKit` for BeaconStrategyKit, …)
must be exactly the beacond modules that the row's Swift modules import (`import Beacon…` in
Sources/<Module>/). Other words in the column (stdlib, Yams, GRDB, "and …") are not checked;
"all of the above" is not checked. Run by `make lint`.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
readme = (root / "README.md").read_text()
modules = sorted(p.name for p in (root / "Sources").iterdir() if p.is_dir() and p.name.startswith("Beacon"))
short = {m[len("Beacon"):]: m for m in modules}

def imports(module):
    found = set()
    for path in (root / "Sources" / module).rglob("*.swift"):
        for match in re.finditer(r"^import (Beacon\w+)", path.read_text(), re.M):
            found.add(match.group(1))
    found.discard(module)
    return found

table = re.search(r"^\| module \| owns \| imports \|\n\|[-|]+\|\n((?:\|.*\|\n)+)", readme, re.M)
if not table:
    sys.exit("README.md: no '| module | owns | imports |' table")
problems = []
seen = set()
for row in table.group(1).splitlines():
    cells = [c.strip() for c in row.strip("|").split("|")]
    named = [m for m in re.findall(r"`(\w+)`", cells[0]) if m in modules or m == "beacond"]
    seen.update(named)
    if "all of the above" in cells[-1]:
        continue
    said = {short[w] for w in re.findall(r"\b(\w+)\b", cells[-1]) if w in short}
    for module in named:
        if module == "beacond":
            continue
        actual = imports(module)
        if said != actual:
            missing = ", ".join(m[len("Beacon"):] for m in sorted(actual - said)) or "-"
            extra = ", ".join(m[len("Beacon"):] for m in sorted(said - actual)) or "-"
            problems.append(f"{module}: the table says {sorted(said)}; it imports {sorted(actual)} "
                            f"(missing from the table: {missing}; not imported: {extra})")
for module in modules:
    if module not in seen:
        problems.append(f"{module}: not in the README's module table")
if problems:
    print("README.md module table does not match the imports:", *problems, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(f"README.md module table matches the imports of {len(seen)} modules")
