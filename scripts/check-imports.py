#!/usr/bin/env python3
"""Every target imports only what Package.swift declares for it (issue 28 §5).

SwiftPM builds a target whose `import` names a module that is only a dependency of a dependency
(the module arrives transitively), and its `--explicit-target-dependency-import-check` only
catches modules outside the dependency closure. This compares, for every Swift target of the
package (sources and tests), the project modules and package products its files import with the
direct dependencies `swift package dump-package` lists for it, and fails naming each target and
the modules it imports without declaring them.

Usage: scripts/check-imports.py [PACKAGE_JSON]  (default: runs `swift package dump-package`)
"""
import glob
import json
import os
import re
import subprocess
import sys

IMPORT = re.compile(r'^\s*(?:@testable\s+|@_exported\s+|@_implementationOnly\s+|(?:public|internal|package)\s+)*'
                    r'import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?(\w+)')


def main() -> int:
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(top)
    if len(sys.argv) > 1:
        package = json.load(open(sys.argv[1]))
    else:
        package = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True,
                                            capture_output=True, text=True).stdout)
    targets = {t["name"]: t for t in package["targets"]}
    # The modules a package product brings (ArgumentParser, Logging, TOMLKit): the product's name
    # is its module's name for every product this package uses.
    products = set()
    for t in targets.values():
        for d in t.get("dependencies", []):
            if "product" in d:
                products.add(d["product"][0])
    known = set(targets) | products

    def declared(t):
        out = set()
        for d in t.get("dependencies", []):
            for kind in ("byName", "target", "product"):
                if kind in d:
                    out.add(d[kind][0])
        return out

    problems = []
    for name, t in sorted(targets.items()):
        if t["type"] in ("system", "binary", "plugin", "macro"):
            continue
        path = t.get("path") or ("Tests/" if t["type"] == "test" else "Sources/") + name
        imported = {}
        for f in sorted(glob.glob(os.path.join(path, "**", "*.swift"), recursive=True)):
            for n, line in enumerate(open(f, encoding="utf-8", errors="replace"), 1):
                m = IMPORT.match(line)
                if m and m.group(1) in known and m.group(1) != name:
                    imported.setdefault(m.group(1), f"{f}:{n}")
        missing = sorted(set(imported) - declared(t))
        for module in missing:
            problems.append(f"{imported[module]}: target '{name}' imports {module}, which Package.swift "
                            f"does not declare as its dependency")
    for p in problems:
        print(p, file=sys.stderr)
    targets_wrong = len({p.split("target '")[1].split("'")[0] for p in problems})
    if problems:
        print(f"check-imports: {len(problems)} import(s) in {targets_wrong} target(s) not declared in Package.swift",
              file=sys.stderr)
        return 1
    print(f"check-imports: every import of the {len(targets)} targets is a declared dependency")
    return 0


if __name__ == "__main__":
    sys.exit(main())
