#!/usr/bin/env python3
# Copyright (c) 2026 The mose authors
# SPDX-License-Identifier: GPL-2.0-only
"""The documentation's file tables, checked against the tree (ctest: mose-docs).

The layout is described once, in doc/mose.rst ("Model Description" and its "Source files"), and
the README points there; this script fails when either drifts from the tree:

  * doc/mose.rst's room table ("Folder / What") lists exactly the rooms of
    cmake/mose-check-layers.py (ROOMS), in that order, and so does the README's folder table;
  * the "Source files" section holds one table per room, headed ``File (under ``ROOM/``)``, and
    together they list every header of the five rooms exactly once, each under its own room;
  * every other table of doc/mose.rst headed ``File (under ``FOLDER/``)`` names only headers
    that exist in that folder;
  * the table of the classes to start with (headed ``Class``) names in its first column only
    classes that an installed header declares (a room below helper/study, the study library
    being no API);
  * every path written in backquotes in README.md or doc/mose.rst that starts with a source
    folder (model/, helper/, examples/, test/, bench/, utils/, cmake/, doc/) names a file or
    folder that exists (globs and ``<...>`` placeholders are skipped).

Usage: mose-check-docs.py SOURCE_DIR      check the tree, exit 1 with one line per problem
       mose-check-docs.py --self-test     check that each rule catches a planted problem
"""

import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module  # noqa: E402

ROOMS = import_module("mose-check-layers").ROOMS

SOURCE_FOLDERS = ("model/", "helper/", "examples/", "test/", "bench/", "utils/", "cmake/", "doc/")
FILE_HEADER = re.compile(r"^File \(under ``([^`]+)/``\)")
HEADER_NAME = re.compile(r"^``(mose-[a-z0-9-]+\.h)``")
DECLARED = re.compile(r"^(?:class|struct)\s+(\w+)\b(?!;)", re.M)
STUDY = "helper/study"
BORDER = re.compile(r"^=+(\s+=+)+\s*$")
PATH_IN_TICKS = re.compile(r"``?([A-Za-z0-9_./-]+)``?")


def headers_in_tree(src):
    """{room: set of header names} for the five rooms."""
    tree = {}
    for room in ROOMS:
        folder = os.path.join(src, room)
        names = os.listdir(folder) if os.path.isdir(folder) else []
        tree[room] = {n for n in names if n.endswith(".h")}
    return tree


def rst_tables(lines):
    """The simple tables of an rst text: (first line index, header cells' first line, rows).

    A row is the text of its first column over the table's width; continuation lines (empty
    first column) belong to the row above and are not returned."""
    tables = []
    i = 0
    while i < len(lines):
        if BORDER.match(lines[i]) and i + 2 < len(lines) and BORDER.match(lines[i + 2]):
            header = lines[i + 1]
            width = len(lines[i].split()[0])
            rows = []
            j = i + 3
            while j < len(lines) and not BORDER.match(lines[j]):
                first = lines[j][:width].strip()
                if first:
                    rows.append((j, first))
                j += 1
            tables.append((i, header, rows))
            i = j + 1
        else:
            i += 1
    return tables


def section_of(lines, index):
    """The title of the section (any underline) that holds line index."""
    for k in range(index, 0, -1):
        underline = lines[k]
        if (
            underline
            and len(set(underline)) == 1
            and underline[0] in "=*#-~^"
            and len(underline) >= 3
            and lines[k - 1].strip()
            and not BORDER.match(lines[k - 1])
            and len(underline.strip()) >= len(lines[k - 1].rstrip()) - 2
        ):
            return lines[k - 1].strip()
    return ""


def installed_classes(src, tree):
    """The classes and structs that the installed headers (the rooms but helper/study) declare."""
    names = set()
    for room in ROOMS:
        if room == STUDY:
            continue
        for header in tree[room]:
            with open(os.path.join(src, room, header), encoding="utf-8") as f:
                names.update(DECLARED.findall(f.read()))
    return names


def check_doc(src, tree, problems):
    path = os.path.join(src, "doc", "mose.rst")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    seen = {}  # header -> list of (room, line)
    room_table = None
    class_table = False
    for start, header, rows in rst_tables(lines):
        if header.startswith("Folder ") and room_table is None:
            room_table = [r[1].strip("`").rstrip("/") for r in rows]
            continue
        if header.startswith("Class "):
            class_table = True
            declared = installed_classes(src, tree)
            for line, first in rows:
                for name in re.findall(r"``(\w+)``", first):
                    if name not in declared:
                        problems.append(f"doc/mose.rst:{line + 1}: {name}, a class to start with, "
                                        f"is declared in no installed header")
            continue
        m = FILE_HEADER.match(header)
        if not m:
            continue
        folder = m.group(1)
        in_sources = section_of(lines, start) == "Source files"
        if in_sources and folder not in ROOMS:
            problems.append(f"doc/mose.rst:{start + 1}: a Source files table for {folder}/, "
                            f"which is not a room ({', '.join(ROOMS)})")
        for line, first in rows:
            hm = HEADER_NAME.match(first)
            if not hm:
                continue
            name = hm.group(1)
            if not os.path.isfile(os.path.join(src, folder, name)):
                where = [r for r in ROOMS if name in tree[r]]
                hint = f" (it is in {where[0]}/)" if where else " (no such header)"
                problems.append(f"doc/mose.rst:{line + 1}: {name} listed under {folder}/{hint}")
            if in_sources:
                seen.setdefault(name, []).append(line + 1)
    if not class_table:
        problems.append("doc/mose.rst: no table of the classes to start with (headed 'Class')")
    if room_table is None:
        problems.append("doc/mose.rst: no room table (a table headed 'Folder')")
    elif room_table != ROOMS:
        problems.append(f"doc/mose.rst: the room table lists {room_table}, the rooms are {ROOMS}")
    for room in ROOMS:
        for name in sorted(tree[room]):
            if name not in seen:
                problems.append(f"doc/mose.rst: {room}/{name} is missing from the Source files tables")
    for name, at in sorted(seen.items()):
        if len(at) > 1:
            problems.append(f"doc/mose.rst: {name} is listed {len(at)} times in Source files "
                            f"(lines {', '.join(map(str, at))})")


def check_readme(src, problems):
    with open(os.path.join(src, "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^## Layout\n(.*?)(?=^## )", text, re.S | re.M)
    if not m:
        problems.append("README.md: no '## Layout' section")
        return
    folders = re.findall(r"^\| `([a-z/]+)/` \|", m.group(1), re.M)
    rooms = [f for f in folders if f in ROOMS]
    if rooms != ROOMS:
        problems.append(f"README.md: the Layout table lists the rooms {rooms}, the rooms are {ROOMS}")


def check_paths(src, name, problems):
    with open(os.path.join(src, name), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            for m in PATH_IN_TICKS.finditer(line):
                p = m.group(1)
                if not p.startswith(SOURCE_FOLDERS) or "*" in p:
                    continue
                # a line's other characters may follow: "model/flow/mose-x.h:12", "test/x.cc,"
                p = p.rstrip(".,:;")
                target = os.path.join(src, p)
                if os.path.exists(target):
                    continue
                # a concept stem: model/flow/roles -> model/flow/mose-roles.h
                stem = os.path.join(src, os.path.dirname(p), "mose-" + os.path.basename(p))
                if os.path.exists(stem + ".h") or os.path.exists(stem + ".cc"):
                    continue
                problems.append(f"{name}:{number}: `{p}` does not exist")


def scan(src):
    problems = []
    tree = headers_in_tree(src)
    check_doc(src, tree, problems)
    check_readme(src, problems)
    for name in ("README.md", os.path.join("doc", "mose.rst")):
        check_paths(src, name, problems)
    return problems


def self_test():
    """Copies the docs and the headers' names into a scratch tree, plants each problem, expects
    it found; the unchanged copy must pass."""
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    failures = 0

    def tree_copy(tmp):
        for room in ROOMS:
            os.makedirs(os.path.join(tmp, room), exist_ok=True)
            for n in os.listdir(os.path.join(src, room)):
                if os.path.isfile(os.path.join(src, room, n)):
                    if n.endswith(".h"):  # the declarations, for the classes to start with
                        shutil.copy(os.path.join(src, room, n), os.path.join(tmp, room, n))
                    else:
                        open(os.path.join(tmp, room, n), "w").close()
        for top in ("examples", "test", "bench", "utils", "cmake", "doc"):
            for dirpath, dirnames, filenames in os.walk(os.path.join(src, top)):
                rel = os.path.relpath(dirpath, src)
                os.makedirs(os.path.join(tmp, rel), exist_ok=True)
                for n in filenames:
                    open(os.path.join(tmp, rel, n), "w").close()
        shutil.copy(os.path.join(src, "doc", "mose.rst"), os.path.join(tmp, "doc", "mose.rst"))
        shutil.copy(os.path.join(src, "README.md"), os.path.join(tmp, "README.md"))

    def planted(what, expect, change):
        nonlocal failures
        with tempfile.TemporaryDirectory() as tmp:
            tree_copy(tmp)
            change(tmp)
            found = scan(tmp)
            if not any(expect in p for p in found):
                print(f"FAIL self-test {what}: expected '{expect}', got {found[:3]}")
                failures += 1
            else:
                print(f"ok   self-test {what}")

    def new_header(tmp):
        open(os.path.join(tmp, "model", "flow", "mose-planted.h"), "w").close()

    def moved_header(tmp):
        os.rename(os.path.join(tmp, "model", "flow", "mose-roles.h"),
                  os.path.join(tmp, "model", "packet", "mose-roles.h"))

    def edit(path, old, new):
        def change(tmp):
            p = os.path.join(tmp, path)
            with open(p, encoding="utf-8") as f:
                text = f.read()
            assert old in text, old
            with open(p, "w", encoding="utf-8") as f:
                f.write(text.replace(old, new, 1))
        return change

    with tempfile.TemporaryDirectory() as tmp:
        tree_copy(tmp)
        found = scan(tmp)
        if found:
            print(f"FAIL self-test copy: the unchanged copy has problems: {found[:3]}")
            failures += 1
        else:
            print("ok   self-test copy")
    planted("a header not in the doc", "mose-planted.h is missing", new_header)
    planted("a header in the wrong folder", "mose-roles.h listed under model/flow/ (it is in model/packet/)",
            moved_header)
    planted("a header listed twice", "is listed 2 times",
            edit("doc/mose.rst", "``mose-roles.h``  ", "``mose-roles.h``  \n``mose-roles.h``"))
    planted("a room missing from the doc", "the room table lists",
            edit("doc/mose.rst", "``helper/study/``      the programs'", "``helper/sturdy/``     the programs'"))
    planted("a room missing from the README", "the Layout table lists the rooms",
            edit("README.md", "| `helper/study/` |", "| `helper/sturdy/` |"))
    planted("a class to start with that does not exist", "MoseDistributer, a class to start with",
            edit("doc/mose.rst", "``MoseDistributed``      ", "``MoseDistributer``      "))
    planted("a class to start with from the study library", "Program, a class to start with",
            edit("doc/mose.rst", "``MoseDistributed``      ", "``Program``              "))
    planted("a path that does not exist", "`utils/nothing.sh` does not exist",
            edit("README.md", "## Layout\n", "## Layout\n\nRun `utils/nothing.sh`.\n"))
    return 1 if failures else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    problems = scan(argv[1])
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s): the docs have drifted from the tree")
        return 1
    print("doc/mose.rst and README.md agree with the tree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
