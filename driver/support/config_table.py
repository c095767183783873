#!/usr/bin/env python3
"""The table of USMCL_* variables in docs/configuration.md, made from
driver/support/config.def, the one list the driver parses.

usage: config_table.py CONFIG_DEF MARKDOWN [--write]
Without --write: exits 1 (and prints the difference) when the table between
the markers in MARKDOWN is not the one CONFIG_DEF gives. With --write:
replaces it.
"""
import difflib
import re
import sys

BEGIN = "<!-- made from driver/support/config.def by driver/support/config_table.py: begin -->"
END = "<!-- made from driver/support/config.def by driver/support/config_table.py: end -->"

KINDS = {
    "string": "string",
    "unsigned": "unsigned integer",
    "boolean": "boolean (`1`/`0`, `true`/`false`, `yes`/`no`, `on`/`off`)",
    "bytes": "bytes (`1048576`, `64KiB`, `512MiB`, `1GiB`; `K`, `M`, `G`, `T`, with or "
    "without `B`/`iB`, are binary multiples)",
}


def entries(text):
    """(kind, NAME, default, doc) of every USMCL_CONFIG(...) line."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"(?m)^\s*#.*$", "", text)  # the macro's own definition
    found = []
    for match in re.finditer(r"USMCL_CONFIG\((.*?)\)\s*(?=USMCL_CONFIG|$)", text, re.S):
        body = match.group(1)
        head = [part.strip() for part in body.split(",", 4)]
        if len(head) < 5:
            continue
        kind, name, _member, default = head[:4]
        doc = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', head[4]))
        found.append((kind, name, default, doc.replace('\\"', '"')))
    return found


def default_text(kind, default):
    if default in ('""', ""):
        return "empty"
    if kind == "boolean":
        return "`1`" if default == "true" else "`0`"
    if kind == "bytes":
        shift = re.fullmatch(r"std::uint64_t\(1\)\s*<<\s*(\d+)", default)
        value = 1 << int(shift.group(1)) if shift else int(default)
        for suffix, power in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
            if value and value % (1 << power) == 0:
                return f"`{value >> power}{suffix}`"
        return f"`{value}`"
    return f"`{default.strip(chr(34))}`"


def table(config_def):
    rows = ["| variable | kind | default | meaning |", "| --- | --- | --- | --- |"]
    for kind, name, default, doc in entries(config_def):
        rows.append(f"| `USMCL_{name}` | {KINDS.get(kind, kind)} | {default_text(kind, default)} | {doc} |")
    return "\n".join(rows)


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    with open(sys.argv[1], encoding="utf-8") as source:
        wanted = table(source.read())
    with open(sys.argv[2], encoding="utf-8") as markdown:
        text = markdown.read()
    begin, end = text.find(BEGIN), text.find(END)
    if begin < 0 or end < begin:
        print(f"{sys.argv[2]}: the markers of the generated table are missing")
        return 1
    current = text[begin + len(BEGIN):end].strip("\n")
    if "--write" in sys.argv[3:]:
        with open(sys.argv[2], "w", encoding="utf-8") as markdown:
            markdown.write(text[:begin + len(BEGIN)] + "\n" + wanted + "\n" + text[end:])
        return 0
    if current != wanted:
        print(f"{sys.argv[2]} does not show {sys.argv[1]}; run:\n"
              f"  python3 driver/support/config_table.py {sys.argv[1]} {sys.argv[2]} --write")
        sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), wanted.splitlines(True)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
