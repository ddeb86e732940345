#!/usr/bin/env python3
"""Every flag a pipelines/*.mk passes to a stage is one that stage declares.

A recipe line that runs `$(BIN)/geo-NAME` passes the flags written on it and in the variables it
expands (recursively, as make would: `$(TERRITORY_FLAGS)`, `$(call flag,--shard,…)`). The stage's
declared flags are read from its binary's `--help` (long names, `-x` short names, `(also: …)`
aliases, `--no-…` inversions), which StageCommand derives from the stage's declared options, so a
renamed or dropped option fails here rather than at 3 a.m. in `make nightly`. Before reading the
real pipelines the check plants a bogus flag in a copy of one and insists it is caught.

usage: scripts/checks/check_pipeline_flags.py   (after `scripts/swift-release.sh build`; BIN=… elsewhere)
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BIN = os.environ.get("BIN", os.path.join(ROOT, ".build", "release"))
FLAG = re.compile(r"(?<![\w$-])(--?[A-Za-z][\w-]*)")
REF = re.compile(r"\$\$?[({]([A-Za-z_][\w-]*)[)}]")
DEFINITION = re.compile(r"^(?:export\s+|override\s+)?([A-Za-z_][\w-]*)\s*(?:\?|::|:|\+|!)?=\s*(.*)$")
STAGE = re.compile(r"\$\(BIN\)/(geo-[\w-]+)((?:\s+[a-z]+)?)")


def logical_lines(text):
    """make's lines: continuations joined, comments (outside recipes) dropped."""
    out = []
    for line in re.sub(r"\\\n", " ", text).split("\n"):
        if not line.startswith("\t"):
            line = re.sub(r"(^|\s)#.*$", "", line)
        if line.strip():
            out.append(line)
    return out


def read(files):
    """Variable values (every definition of a name, unioned) and recipe lines that run a stage,
    each as (file, binary, subcommand, text)."""
    values, recipes = {}, []
    for path, text in files:
        for line in logical_lines(text):
            if line.startswith("\t"):
                for m in STAGE.finditer(line):
                    recipes.append((path, m.group(1), m.group(2).strip(), line))
                continue
            d = DEFINITION.match(line)
            if d:
                values.setdefault(d.group(1), []).append(d.group(2))
    return values, recipes


def without_shell(text):
    """`text` without its `$(shell …)` calls: their flags are the shell commands', not the stage's."""
    while (start := text.find("$(shell ")) >= 0:
        depth, end = 0, start + 1
        for end in range(start + 1, len(text)):
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            if depth == 0:
                break
        text = text[:start] + " " + text[end + 1:]
    return text


def passed_flags(text, values, seen=None):
    """The flags in `text` and in every variable it expands, recursively."""
    seen = set() if seen is None else seen
    text = without_shell(text)
    flags = set(FLAG.findall(re.sub(REF, " ", text)))
    for name in REF.findall(text):
        if name in seen:
            continue
        seen.add(name)
        for value in values.get(name, []):
            flags |= passed_flags(value, values, seen)
    return flags


def declared_flags(binary, subcommand):
    args = [os.path.join(BIN, binary)] + ([subcommand] if subcommand else []) + ["--help"]
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=60).stdout
    except FileNotFoundError:
        sys.exit(f"check_pipeline_flags: {args[0]} is missing (run scripts/swift-release.sh build)")
    usage = out[out.find("USAGE:"):] if "USAGE:" in out else ""
    if not usage:
        sys.exit(f"check_pipeline_flags: `{' '.join(args)}` printed no USAGE section")
    flags = set(FLAG.findall(usage))
    for a, b in re.findall(r"(--[\w-]+)/(--[\w-]+)", usage):   # --wait/--no-wait
        flags |= {a, b}
    return flags


def problems(files, declared):
    values, recipes = read(files)
    found = []
    for path, binary, sub, line in recipes:
        known = declared(binary, sub)
        # A recipe line's flags that follow a `;`, `&&` or `|` belong to another command.
        own = re.split(r";|&&|\|", without_shell(line[line.find("$(BIN)/" + binary):]))[0]
        for flag in sorted(passed_flags(own, values) - known):
            found.append(f"{os.path.relpath(path, ROOT)}: {binary}{' ' + sub if sub else ''} is passed {flag}, "
                         f"which it does not declare ({binary} --help)")
    return found, len(recipes)


def main():
    paths = sorted(glob.glob(os.path.join(ROOT, "pipelines", "*.mk"))) + [os.path.join(ROOT, "Makefile")]
    files = [(p, open(p, encoding="utf-8").read()) for p in paths]
    cache = {}

    def declared(binary, sub):
        if (binary, sub) not in cache:
            cache[(binary, sub)] = declared_flags(binary, sub)
        return cache[(binary, sub)]

    # The check must be able to fail: a bogus flag planted in a copy of territory.mk is caught.
    planted = [(p, t.replace("--output-dir $(TERRITORY_DIR)", "--output-dir $(TERRITORY_DIR) --no-such-flag"))
               if p.endswith("territory.mk") else (p, t) for p, t in files]
    caught, _ = problems(planted, declared)
    if not any("--no-such-flag" in c for c in caught):
        sys.exit("check_pipeline_flags: a bogus flag planted in territory.mk was not caught; the check is broken")

    found, recipes = problems(files, declared)
    for f in found:
        print("  FAIL " + f)
    if found:
        sys.exit(1)
    print(f"  ok   {recipes} stage invocations in pipelines/*.mk pass only flags their stage declares "
          f"({len(cache)} stages' --help read; a planted bogus flag is caught)")


if __name__ == "__main__":
    main()
