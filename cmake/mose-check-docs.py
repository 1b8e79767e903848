#!/usr/bin/env python3
# Copyright (c) 2026 The mose authors
# SPDX-License-Identifier: GPL-2.0-only
"""The documentation's file, attribute and logging tables, checked against the tree (mose-docs).

The layout is described once, in doc/mose.rst ("Model Description" and its "Source files"), and
the README points there; this script fails when either drifts from the tree:

  * doc/mose.rst's room table ("Folder / What") lists exactly the rooms of
    cmake/mose-check-layers.py (ROOMS), in that order, and so does the README's folder table;
  * the "Source files" section holds one table per room, headed ``File (under ``ROOM/``)``, and
    one per sub-room of helper/study (STUDY_ROOMS of cmake/mose-check-layers.py), headed
    ``File (under ``helper/study/SUB/``)``; together they list every header of the rooms
    exactly once, each under its own room or sub-room;
  * every other table of doc/mose.rst headed ``File (under ``FOLDER/``)`` names only headers
    that exist in that folder;
  * the table of the classes to start with (headed ``Class``) names in its first column only
    classes that an installed header declares (a room below helper/study, the study library
    being no API);
  * every path written in backquotes in README.md or doc/mose.rst that starts with a source
    folder (model/, helper/, examples/, test/, bench/, utils/, cmake/, doc/) names a file or
    folder that exists (globs and ``<...>`` placeholders are skipped);
  * the "Logging" section's tables (headed ``Component``, one component a row) list exactly the
    log components of model/ and helper/ (every NS_LOG_COMPONENT_DEFINE("X") of a .cc or .h),
    each once; every component that README.md or doc/mose.rst enables (``NS_LOG=X...``,
    ``LogComponentEnable("X"``) is one of them, since an unknown name aborts ns-3;
  * the "Attributes and trace sources" section names every TypeId("ns3::X") of model/ and
    helper/ once, at the start of a line of its own (``ns3::X`` in double backquotes), and under
    it, one bullet each, every attribute (``* ``Name`` ...``) and trace source
    (``* Trace ``Name`` ...``) that the TypeId declares (.AddAttribute("Name",
    .AddTraceSource("Name"), and no other;
  * the prose of doc/mose.rst and of README.md reads in short sentences, as ns-3's model docs do
    (14-25 words a sentence): the mean words per sentence of each is at most SENTENCE_MEAN_MAX
    (22) and no sentence has more than SENTENCE_MAX (60) words. Prose is what is left without
    headings, tables, code and literal blocks (after "::"), directives and their bodies, HTML
    comments and list markers; a sentence ends at ".", "?" or "!" followed by white space and a
    capital, a digit or a literal's backquote, or at the end of its paragraph or list item, not
    after "e.g.", "i.e.", "vs." and the like, an initial or an ellipsis (so "1.5" and
    "mose-llm.cc", with no space after the period, end nothing); a word is a token between white
    space with a letter or a digit.

The sources are read with regular expressions, comments removed: an .AddAttribute or
.AddTraceSource belongs to the TypeId("ns3::X") before it in its file; a name is the call's first
argument, a string literal or an element of a string array initialised in the same file.

Usage: mose-check-docs.py SOURCE_DIR      check the tree, exit 1 with one line per problem
       mose-check-docs.py --sentences SOURCE_DIR
                                          print each document's sentence figures (count, mean
                                          and median words, share over 30, count over 60)
       mose-check-docs.py --self-test     check that each rule catches a planted problem
"""

import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module  # noqa: E402

_LAYERS = import_module("mose-check-layers")
ROOMS = _LAYERS.ROOMS
STUDY_ROOMS = _LAYERS.STUDY_ROOMS

SOURCE_FOLDERS = ("model/", "helper/", "examples/", "test/", "bench/", "utils/", "cmake/", "doc/")
FILE_HEADER = re.compile(r"^File \(under ``([^`]+)/``\)")
HEADER_NAME = re.compile(r"^``(mose-[a-z0-9-]+\.h)``")
DECLARED = re.compile(r"^(?:class|struct)\s+(\w+)\b(?!;)", re.M)
STUDY = "helper/study"
# the folders that hold the sources: the rooms, helper/study as its sub-rooms (lowest first)
SOURCE_ROOMS = [r for r in ROOMS if r != STUDY] + STUDY_ROOMS
BORDER = re.compile(r"^=+(\s+=+)+\s*$")
PATH_IN_TICKS = re.compile(r"``?([A-Za-z0-9_./-]+)``?")
LOG_DEFINE = re.compile(r"\bNS_LOG_COMPONENT_DEFINE\s*\(\s*\"([^\"]+)\"\s*\)")
TYPEID = re.compile(r"(?<![\w.>:])TypeId\s*\(\s*\"(ns3::[^\"]+)\"\s*\)")
ADD_ATTRIBUTE = re.compile(r"\.AddAttribute\s*\(\s*(?:\"((?:[^\"\\]|\\.)*)\"|(\w+)\s*\[)")
ADD_TRACE = re.compile(r"\.AddTraceSource\s*\(\s*\"((?:[^\"\\]|\\.)*)\"")
CODE_FOLDERS = ("model", "helper")
LOGGING = "Logging"
ATTRIBUTES = "Attributes and trace sources"
TYPE_LINE = re.compile(r"^``(ns3::[\w:]+)``")
ATTRIBUTE_ITEM = re.compile(r"^\* ``(\w+)``")
TRACE_ITEM = re.compile(r"^\* Trace ``(\w+)``")
NS_LOG_VALUE = re.compile(r"\bNS_LOG=['\"]?([A-Za-z0-9_=|:*]+)")
LOG_ENABLE = re.compile(r"\bLogComponentEnable\s*\(\s*\"(\w+)\"")
LEVELS = "-*=#"  # doc/mose.rst's title underlines, outermost first
SENTENCE_MEAN_MAX = 22  # ns-3's model docs run 14-25 words a sentence
SENTENCE_MAX = 60
# the word before a period that ends no sentence: "e.g. Foo", "vs. Bar", "Fig. 3", "et al. 2024"
ABBREVIATIONS = {"e.g", "i.e", "vs", "cf", "fig", "figs", "eq", "eqs", "sec", "al", "approx",
                 "resp", "pp"}
SENTENCE_END = re.compile(r"[.?!][)\]\"'*_`]*(?=\s+[(\[\"'*`]*([A-Z0-9`]))")
RST_TITLE_UNDERLINE = re.compile(r"^([=*#~^\-+`:'\".])\1{2,}\s*$")
RST_LIST_MARKER = re.compile(r"^([*+-]|#\.|\d+\.|\(?[a-z0-9]\))\s+")
MD_LIST_MARKER = re.compile(r"^([*+-]|\d+[.)])\s+")


def strip_comments(text):
    """C++ text without its comments (each replaced by a space); string and character literals
    are kept as they are, so a "//" inside a help text is no comment."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"' or (c == "'" and re.match(r"'(?:\\.|[^\\'])'", text[i:i + 4])):
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def code_sources(src):
    """(path relative to src, text without comments) of every .cc and .h of model/ and helper/,
    sorted by path."""
    found = []
    for top in CODE_FOLDERS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(src, top)):
            dirnames.sort()
            for n in sorted(filenames):
                if n.endswith((".cc", ".h")):
                    path = os.path.join(dirpath, n)
                    with open(path, encoding="utf-8") as f:
                        found.append((os.path.relpath(path, src), strip_comments(f.read())))
    return found


def log_components(sources):
    """{component: [files that define it]} of every NS_LOG_COMPONENT_DEFINE."""
    components = {}
    for path, text in sources:
        for name in LOG_DEFINE.findall(text):
            components.setdefault(name, []).append(path)
    return components


def registered_types(sources, problems):
    """{TypeId name: (file, [attribute names], [trace source names])} of every TypeId("ns3::X")
    of model/ and helper/: an .AddAttribute or .AddTraceSource belongs to the TypeId before it in
    its file. An attribute named by an array element (NAMES[KIND]) takes the names of the
    array's initialiser in the same file."""
    types = {}
    for path, text in sources:
        starts = list(TYPEID.finditer(text))
        for k, m in enumerate(starts):
            end = starts[k + 1].start() if k + 1 < len(starts) else len(text)
            body = text[m.end():end]
            attributes = []
            for a in ADD_ATTRIBUTE.finditer(body):
                if a.group(1) is not None:
                    attributes.append(a.group(1))
                    continue
                array = re.search(r"\b" + a.group(2) + r"\s*=\s*\{([^}]*)\}", text)
                if not array:
                    problems.append(f"{path}: {m.group(1)} names an attribute by "
                                    f"{a.group(2)}[...], whose initialiser this check cannot find")
                    continue
                for name in re.findall(r"\"([^\"]+)\"", array.group(1)):
                    if name not in attributes:
                        attributes.append(name)
            traces = ADD_TRACE.findall(body)
            if m.group(1) in types:
                problems.append(f"{path}: {m.group(1)} is registered again "
                                f"(first in {types[m.group(1)][0]})")
                continue
            types[m.group(1)] = (path, attributes, traces)
    return types


def headers_in_tree(src):
    """{room: set of header names} for the rooms, helper/study as its sub-rooms."""
    tree = {}
    for room in SOURCE_ROOMS:
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
        if in_sources and folder not in SOURCE_ROOMS:
            problems.append(f"doc/mose.rst:{start + 1}: a Source files table for {folder}/, "
                            f"which is not a room ({', '.join(SOURCE_ROOMS)})")
        for line, first in rows:
            hm = HEADER_NAME.match(first)
            if not hm:
                continue
            name = hm.group(1)
            if not os.path.isfile(os.path.join(src, folder, name)):
                where = [r for r in SOURCE_ROOMS if name in tree[r]]
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
    for room in SOURCE_ROOMS:
        for name in sorted(tree[room]):
            if name not in seen:
                problems.append(f"doc/mose.rst: {room}/{name} is missing from the Source files tables")
    for name, at in sorted(seen.items()):
        if len(at) > 1:
            problems.append(f"doc/mose.rst: {name} is listed {len(at)} times in Source files "
                            f"(lines {', '.join(map(str, at))})")


def section_range(lines, title):
    """(first, end) line indices of the body of the section titled title (up to the next title
    of the same or an outer level), or None."""
    def level(k):
        """The level of the title on line k (an index into LEVELS), or None."""
        if k + 1 >= len(lines) or not lines[k].strip() or BORDER.match(lines[k]):
            return None
        underline = lines[k + 1]
        if (
            len(underline) >= 3
            and len(set(underline)) == 1
            and underline[0] in LEVELS
            and len(underline) >= len(lines[k].rstrip())
        ):
            return LEVELS.index(underline[0])
        return None

    for k, line in enumerate(lines):
        if line.strip() == title and level(k) is not None:
            mine = level(k)
            for j in range(k + 2, len(lines)):
                other = level(j)
                if other is not None and other <= mine:
                    return k + 2, j
            return k + 2, len(lines)
    return None


def check_logging(src, lines, sources, problems):
    """The Logging section's tables against NS_LOG_COMPONENT_DEFINE, and every enabled name."""
    components = log_components(sources)
    for name, files in sorted(components.items()):
        if len(files) > 1:
            problems.append(f"{', '.join(files)}: the log component {name} is defined "
                            f"{len(files)} times")
    for doc in ("README.md", os.path.join("doc", "mose.rst")):
        with open(os.path.join(src, doc), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                names = LOG_ENABLE.findall(line)
                for value in NS_LOG_VALUE.findall(line):
                    names += [item.split("=")[0] for item in value.split(":")]
                for name in names:
                    if name and name != "*" and name not in components:
                        problems.append(f"{doc}:{number}: NS_LOG names {name}, which is no log "
                                        f"component of model/ or helper/")
    where = section_range(lines, LOGGING)
    if where is None:
        problems.append(f"doc/mose.rst: no '{LOGGING}' section")
        return
    first, end = where
    listed = {}  # component -> list of lines
    tables = 0
    for start, header, rows in rst_tables(lines[first:end]):
        if not header.startswith("Component "):
            continue
        tables += 1
        for line, cell in rows:
            number = first + line + 1
            m = re.fullmatch(r"``(\w+)``", cell)
            if not m:
                problems.append(f"doc/mose.rst:{number}: '{cell}' in a Logging table is not one "
                                f"component name in double backquotes")
                continue
            listed.setdefault(m.group(1), []).append(number)
    if tables == 0:
        problems.append(f"doc/mose.rst: the '{LOGGING}' section has no table headed 'Component'")
        return
    for name, files in sorted(components.items()):
        if name not in listed:
            problems.append(f"doc/mose.rst: the log component {name} ({files[0]}) is missing "
                            f"from the {LOGGING} tables")
    for name, at in sorted(listed.items()):
        if name not in components:
            problems.append(f"doc/mose.rst:{at[0]}: {name} is no log component of model/ or "
                            f"helper/ (NS_LOG would abort on it)")
        if len(at) > 1:
            problems.append(f"doc/mose.rst: the log component {name} is listed {len(at)} times "
                            f"(lines {', '.join(map(str, at))})")


def check_attributes(lines, sources, problems):
    """The Attributes and trace sources section against the TypeIds of the sources."""
    types = registered_types(sources, problems)
    where = section_range(lines, ATTRIBUTES)
    if where is None:
        problems.append(f"doc/mose.rst: no '{ATTRIBUTES}' section")
        return
    first, end = where
    blocks = {}  # TypeId -> (line, {attribute: [lines]}, {trace source: [lines]})
    current = None
    for k in range(first, end):
        line = lines[k]
        m = TYPE_LINE.match(line)
        if m:
            name = m.group(1)
            if name in blocks:
                problems.append(f"doc/mose.rst:{k + 1}: {name} is listed again (first on line "
                                f"{blocks[name][0]})")
                current = None
            else:
                blocks[name] = (k + 1, {}, {})
                current = blocks[name]
            continue
        trace = TRACE_ITEM.match(line)
        attribute = None if trace else ATTRIBUTE_ITEM.match(line)
        if not trace and not attribute:
            continue
        if current is None:
            problems.append(f"doc/mose.rst:{k + 1}: a bullet of '{ATTRIBUTES}' under no TypeId "
                            f"line (``ns3::X`` at the start of a line)")
            continue
        kind = current[2] if trace else current[1]
        kind.setdefault((trace or attribute).group(1), []).append(k + 1)
    for name, (path, attributes, traces) in sorted(types.items()):
        if name not in blocks:
            problems.append(f"doc/mose.rst: {name} ({path}) is missing from '{ATTRIBUTES}'")
            continue
        line, listed_attributes, listed_traces = blocks[name]
        for what, declared, listed, other in (("attribute", attributes, listed_attributes, traces),
                                              ("trace source", traces, listed_traces, attributes)):
            for a in declared:
                if a not in listed:
                    problems.append(f"doc/mose.rst:{line}: the {what} {name}::{a} ({path}) is "
                                    f"missing from '{ATTRIBUTES}'")
            for a, at in sorted(listed.items()):
                if a not in declared:
                    hint = (f" (it is a {'trace source' if what == 'attribute' else 'attribute'}: "
                            f"write it as such)" if a in other else "")
                    problems.append(f"doc/mose.rst:{at[0]}: {name} declares no {what} {a}{hint}")
                if len(at) > 1:
                    problems.append(f"doc/mose.rst: the {what} {name}::{a} is listed {len(at)} "
                                    f"times (lines {', '.join(map(str, at))})")
    for name, (line, _, _) in sorted(blocks.items()):
        if name not in types:
            problems.append(f"doc/mose.rst:{line}: {name} is registered by no TypeId of model/ "
                            f"or helper/")


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


def prose_paragraphs_rst(lines):
    """The prose paragraphs of an rst text, each as [(line number, text)], without headings,
    tables, directives and their bodies (code, figures, comments), literal blocks after "::" and
    list markers. A paragraph ends at a blank line, at a list item, or where the indentation
    changes (a definition list's term and its definition are two)."""
    paragraphs = []
    current = []
    indent = None  # the current paragraph's text indentation
    skip_deeper = None  # skip the lines indented more than this (a directive's or literal body)
    i = 0
    n = len(lines)

    def close():
        nonlocal current, indent
        if current:
            paragraphs.append(current)
        current = []
        indent = None

    while i < n:
        line = lines[i].rstrip()
        stripped = line.strip()
        lead = len(line) - len(line.lstrip())
        if skip_deeper is not None:
            if not stripped or lead > skip_deeper:
                i += 1
                continue
            skip_deeper = None
        if not stripped:
            close()
            i += 1
            continue
        # a title: text over an underline at least as long (or under an overline too)
        if i + 1 < n and RST_TITLE_UNDERLINE.match(lines[i + 1]) and current == [] \
                and len(lines[i + 1].rstrip()) >= len(stripped) and lead == 0:
            i += 2
            continue
        if RST_TITLE_UNDERLINE.match(line) and lead == 0 and not BORDER.match(line):
            i += 1  # an overline or a transition
            continue
        # a simple table: border, header, border, rows, border (indented in a list item too)
        if BORDER.match(stripped):
            close()
            j = i + 1
            borders = 1
            while j < n and borders < 3:
                if BORDER.match(lines[j].strip()):
                    borders += 1
                j += 1
            i = j
            continue
        # a grid table or a line block
        if stripped.startswith(("+-", "+=", "| ")):
            close()
            while i < n and lines[i].strip():
                i += 1
            continue
        if stripped.startswith(".. "):
            close()
            skip_deeper = lead
            i += 1
            continue
        marker = RST_LIST_MARKER.match(stripped)
        if marker:
            close()
            indent = lead + marker.end()
            text = stripped[marker.end():]
        elif indent is not None and lead != indent:
            close()
            indent = lead
            text = stripped
        else:
            if indent is None:
                indent = lead
            text = stripped
        if text.endswith("::") and (i + 1 == n or not lines[i + 1].strip()):
            # the literal block that follows is code; "Text::" reads "Text:", "Text ::" "Text"
            text = text[:-2].rstrip() + (":" if not text[:-2].endswith(" ") else "")
            current.append((i + 1, text))
            close()
            skip_deeper = lead
            i += 1
            continue
        current.append((i + 1, text))
        i += 1
    close()
    return paragraphs


def prose_paragraphs_md(lines):
    """The prose paragraphs of a Markdown text, as prose_paragraphs_rst: without headings,
    fenced code, tables, HTML comments and list markers."""
    paragraphs = []
    current = []
    indent = None
    fence = None
    in_comment = False

    def close():
        nonlocal current, indent
        if current:
            paragraphs.append(current)
        current = []
        indent = None

    for number, raw in enumerate(lines, 1):
        line = raw.rstrip()
        stripped = line.strip()
        lead = len(line) - len(line.lstrip())
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith(("```", "~~~")):
            close()
            fence = stripped[:3]
            continue
        if in_comment or stripped.startswith("<!--"):
            in_comment = "-->" not in stripped
            stripped = stripped.split("-->", 1)[1].strip() if "-->" in stripped else ""
            if not stripped:
                close()
                continue
        if not stripped or stripped.startswith(("#", "|")):
            close()
            continue
        if stripped.startswith(">"):
            stripped = stripped.lstrip("> ")
        marker = MD_LIST_MARKER.match(stripped)
        if marker:
            close()
            indent = lead + marker.end()
            text = stripped[marker.end():]
        elif indent is not None and lead != indent and lead > 0:
            close()
            indent = lead
            text = stripped
        else:
            if indent is None:
                indent = lead
            text = stripped
        current.append((number, text))
    close()
    return paragraphs


def mask_literals(text):
    """text with every inline literal's characters (``x`` and `x`) but spaces replaced by 'x',
    so that no period inside code ends a sentence; the backquotes are kept."""
    def hide(m):
        inner = re.sub(r"\S", "x", m.group(2))
        return m.group(1) + inner + m.group(1)
    return re.sub(r"(``?)(.+?)\1", hide, text)


def sentences(paragraphs):
    """(line number, words, text) of every sentence of the paragraphs. A sentence ends at . ? or
    ! followed by white space and a capital, a digit or a literal's backquote, or at the end of
    its paragraph; not after an abbreviation (e.g., i.e., vs., Fig.), an initial or an ellipsis.
    A word is a token between white space with a letter or a digit."""
    found = []
    for paragraph in paragraphs:
        text = ""
        starts = []  # (offset, line number)
        for number, part in paragraph:
            starts.append((len(text), number))
            text += part + " "
        masked = mask_literals(text)
        begin = 0
        cuts = []
        for m in SENTENCE_END.finditer(masked):
            words = masked[:m.start()].split()
            before = words[-1].lstrip("(\"'*`[") if words else ""
            # an initial ("F. Yang", "P. B. Godfrey") follows a comma, a colon, another initial
            # or nothing; a variable ends a sentence ("... at most N. The")
            initial = re.fullmatch(r"[A-Z](\.-?[A-Z])*", before) and (
                len(words) < 2 or words[-2].endswith((",", ".", ";", ":", "*")))
            if before.lower() in ABBREVIATIONS or initial or before.endswith("."):
                continue
            cuts.append(m.end())
        cuts.append(len(text))
        for cut in cuts:
            sentence = text[begin:cut].strip()
            if sentence:
                skipped = len(text[begin:cut]) - len(text[begin:cut].lstrip())
                line = [nb for off, nb in starts if off <= begin + skipped][-1]
                words = sum(1 for w in sentence.split() if re.search(r"[A-Za-z0-9]", w))
                if words:
                    found.append((line, words, sentence))
            begin = cut
    return found


def doc_sentences(src, name):
    """The sentences of doc/mose.rst or README.md's prose."""
    with open(os.path.join(src, name), encoding="utf-8") as f:
        lines = f.read().split("\n")
    if name.endswith(".md"):
        return sentences(prose_paragraphs_md(lines))
    return sentences(prose_paragraphs_rst(lines))


def check_sentences(src, problems):
    """The sentences of the prose: on average at most SENTENCE_MEAN_MAX words, none over
    SENTENCE_MAX."""
    for name in ("README.md", os.path.join("doc", "mose.rst")):
        found = doc_sentences(src, name)
        for line, words, text in found:
            if words > SENTENCE_MAX:
                problems.append(f"{name}:{line}: a sentence of {words} words (at most "
                                f"{SENTENCE_MAX}): {text}")
        mean = sum(w for _, w, _ in found) / len(found) if found else 0
        if mean > SENTENCE_MEAN_MAX:
            problems.append(f"{name}: its sentences run {mean:.1f} words on average (at most "
                            f"{SENTENCE_MEAN_MAX}; {len(found)} sentences)")


def sentence_figures(src):
    """One line per document: sentences, mean and median words, share over 30, count over 60."""
    out = []
    for name in ("README.md", os.path.join("doc", "mose.rst")):
        counts = sorted(w for _, w, _ in doc_sentences(src, name))
        if not counts:
            continue
        k = len(counts)
        median = (counts[(k - 1) // 2] + counts[k // 2]) / 2
        over30 = sum(1 for w in counts if w > 30)
        over60 = sum(1 for w in counts if w > SENTENCE_MAX)
        out.append(f"{name}: {k} sentences, {sum(counts)} words, mean {sum(counts) / k:.1f}, "
                   f"median {median:g}, over 30 words {over30} ({100 * over30 / k:.1f}%), "
                   f"over {SENTENCE_MAX} words {over60}, longest {counts[-1]}")
    return out


def scan(src):
    problems = []
    tree = headers_in_tree(src)
    check_doc(src, tree, problems)
    check_readme(src, problems)
    sources = code_sources(src)
    with open(os.path.join(src, "doc", "mose.rst"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    check_logging(src, lines, sources, problems)
    check_attributes(lines, sources, problems)
    for name in ("README.md", os.path.join("doc", "mose.rst")):
        check_paths(src, name, problems)
    check_sentences(src, problems)
    return problems


def self_test():
    """Copies the docs and the headers' names into a scratch tree, plants each problem, expects
    it found; the unchanged copy must pass."""
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    failures = 0

    def tree_copy(tmp):
        for room in SOURCE_ROOMS:
            os.makedirs(os.path.join(tmp, room), exist_ok=True)
        for top in CODE_FOLDERS:
            for dirpath, dirnames, filenames in os.walk(os.path.join(src, top)):
                rel = os.path.relpath(dirpath, src)
                os.makedirs(os.path.join(tmp, rel), exist_ok=True)
                for n in filenames:
                    if n.endswith((".h", ".cc")):  # declarations, log components, TypeIds
                        shutil.copy(os.path.join(dirpath, n), os.path.join(tmp, rel, n))
                    else:
                        open(os.path.join(tmp, rel, n), "w").close()
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

    def moved_study_header(tmp):
        os.rename(os.path.join(tmp, "helper", "study", "flow", "mose-seed-pool.h"),
                  os.path.join(tmp, "helper", "study", "cli", "mose-seed-pool.h"))

    def edit(path, old, new):
        def change(tmp):
            p = os.path.join(tmp, path)
            with open(p, encoding="utf-8") as f:
                text = f.read()
            assert old in text, old
            with open(p, "w", encoding="utf-8") as f:
                f.write(text.replace(old, new, 1))
        return change

    def row(component):
        """The start of a Logging table row: the component in its 30-character column."""
        return f"``{component}``".ljust(32)

    def unchanged(what, change):
        """A change that must add no problem to the unchanged copy's."""
        nonlocal failures
        with tempfile.TemporaryDirectory() as tmp:
            tree_copy(tmp)
            change(tmp)
            new = [p for p in scan(tmp) if p not in baseline]
            if new:
                print(f"FAIL self-test {what}: expected no new problem, got {new[:3]}")
                failures += 1
            else:
                print(f"ok   self-test {what}")

    with tempfile.TemporaryDirectory() as tmp:
        tree_copy(tmp)
        baseline = scan(tmp)
        if baseline:
            print(f"FAIL self-test copy: the unchanged copy has problems: {baseline[:3]}")
            failures += 1
        else:
            print("ok   self-test copy")
    planted("a header not in the doc", "mose-planted.h is missing", new_header)
    planted("a header in the wrong folder", "mose-roles.h listed under model/flow/ (it is in model/packet/)",
            moved_header)
    planted("a study header in the wrong sub-room",
            "mose-seed-pool.h listed under helper/study/flow/ (it is in helper/study/cli/)",
            moved_study_header)
    planted("a Source files table for a folder that is no sub-room",
            "a Source files table for helper/study/misc/, which is not a room",
            edit("doc/mose.rst", "File (under ``helper/study/cli/``)  ",
                 "File (under ``helper/study/misc/``) "))
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
    planted("a log component not in the doc",
            "the log component MosePlanted (model/packet/mose-ocs.cc)",
            edit("model/packet/mose-ocs.cc", 'NS_LOG_COMPONENT_DEFINE("MoseOcs");',
                 'NS_LOG_COMPONENT_DEFINE("MoseOcs");\nNS_LOG_COMPONENT_DEFINE("MosePlanted");'))
    planted("a log component that does not exist", "MoseTextIO is no log component",
            edit("doc/mose.rst", row("MoseTextIo"), row("MoseTextIO")))
    planted("a log component listed twice", "the log component MoseOcs is listed 2 times",
            edit("doc/mose.rst", row("MoseOcs") + "each",
                 row("MoseOcs") + "twice\n" + row("MoseOcs") + "each"))
    planted("a log component defined twice", "the log component MoseOcs is defined 2 times",
            edit("model/packet/mose-ocs-channel.cc", 'NS_LOG_COMPONENT_DEFINE("MoseOcsChannel");',
                 'NS_LOG_COMPONENT_DEFINE("MoseOcs");'))
    planted("a Logging row of two components", "is not one component name",
            edit("doc/mose.rst", row("MoseOcs") + "each",
                 "``MoseOcs``, ``MoseOcsX``".ljust(32) + "each"))
    planted("an NS_LOG name that does not exist", "NS_LOG names FlowExperimentHelper",
            edit("doc/mose.rst", "NS_LOG=MoseFlowExperimentHelper=info",
                 "NS_LOG=FlowExperimentHelper=info"))
    planted("a LogComponentEnable name that does not exist", "NS_LOG names MoseRoutingProtocols",
            edit("doc/mose.rst", 'LogComponentEnable("MoseRoutingProtocol"',
                 'LogComponentEnable("MoseRoutingProtocols"'))
    planted("a TypeId not in the doc", "ns3::MosePlanted (model/packet/mose-ocs.cc) is missing",
            edit("model/packet/mose-ocs.cc", 'NS_LOG_COMPONENT_DEFINE("MoseOcs");',
                 'NS_LOG_COMPONENT_DEFINE("MoseOcs");\n'
                 'static TypeId t = TypeId("ns3::MosePlanted");'))
    planted("a TypeId that does not exist", "ns3::MoseHeldTag is registered by no TypeId",
            edit("doc/mose.rst", "``ns3::MoseHoldTag``:", "``ns3::MoseHeldTag``:"))
    planted("a TypeId listed twice", "ns3::MoseOcs is listed again",
            edit("doc/mose.rst", "``ns3::MoseOcsChannel``:",
                 "``ns3::MoseOcs``: again.\n\n``ns3::MoseOcsChannel``:"))
    planted("an attribute not in the doc (name on the next line)",
            "the attribute ns3::MoseOcs::PlantedRate (model/packet/mose-ocs.cc) is missing",
            edit("model/packet/mose-ocs.cc", '.AddAttribute("DataRate",',
                 '.AddAttribute(\n                "PlantedRate", "help", X)\n'
                 '            .AddAttribute("DataRate",'))
    planted("a trace source not in the doc",
            "the trace source ns3::MoseOcs::PlantedTrace (model/packet/mose-ocs.cc) is missing",
            edit("model/packet/mose-ocs.cc", '.AddTraceSource("WireDrop",',
                 '.AddTraceSource("PlantedTrace", "help", X)\n'
                 '            .AddTraceSource("WireDrop",'))
    planted("an attribute that does not exist", "ns3::MoseOcs declares no attribute DataRates",
            edit("doc/mose.rst", "* ``DataRate`` (400Gbps)", "* ``DataRates`` (400Gbps)"))
    planted("a trace source written as an attribute",
            "ns3::MoseOcsChannel declares no attribute WireDrop (it is a trace source",
            edit("doc/mose.rst", "* Trace ``WireDrop`` (the same): a packet on this port's",
                 "* ``WireDrop`` (the same): a packet on this port's"))
    planted("an attribute listed twice", "the attribute ns3::MoseOcs::Delay is listed 2 times",
            edit("doc/mose.rst", "* ``DataRate`` (400Gbps)",
                 "* ``Delay``: again.\n* ``DataRate`` (400Gbps)"))
    planted("an attribute named by an array element",
            "the attribute ns3::MoseObjectListPriv::MosePlantedList "
            "(model/packet/mose-object-list.cc)",
            edit("model/packet/mose-object-list.cc", '"MosePfcList"}',
                 '"MosePfcList", "MosePlantedList"}'))
    words = " ".join(["word"] * 69)
    planted("a sentence over 60 words", "a sentence of 70 words (at most 60): Planted word",
            edit("doc/mose.rst", "Model Description\n*****************\n\n",
                 f"Model Description\n*****************\n\nPlanted {words}.\n\n"))
    half = " ".join(["word"] * 30)
    planted("e.g., vs., a number and a file name end no sentence",
            "a sentence of 71 words",
            edit("doc/mose.rst", "Model Description\n*****************\n\n",
                 f"Model Description\n*****************\n\nPlanted {half} e.g. Mose vs. Ns "
                 f"took 1.5 s in Mose-llm.cc and {half}.\n\n"))
    planted("a long sentence in a README list item", "README.md:",
            edit("README.md", "## Layout\n", f"## Layout\n\n- planted {words}.\n"))
    sixty = " ".join(["word"] * 58)
    planted("sentences too long on average", "README.md: its sentences run",
            edit("README.md", "## Layout\n",
                 "## Layout\n\n" + "".join(f"Planted {sixty}.\n" for _ in range(40))))
    unchanged("code, literal blocks, tables and headings are no prose",
              edit("doc/mose.rst", "Model Description\n*****************\n\n",
                   f"Model Description\n*****************\n\nA literal block::\n\n  {words}\n\n"
                   f".. code-block:: sh\n\n   {words}\n\n====  ====\nA     B\n====  ====\n"
                   f"x     {words}\n====  ====\n\n"))
    unchanged("a table indented in a list item is no prose",
              edit("doc/mose.rst", "Model Description\n*****************\n\n",
                   f"Model Description\n*****************\n\n* An item:\n\n  ====  ====\n"
                   f"  A     B\n  ====  ====\n  x     {words}\n  ====  ====\n\n"))
    unchanged("a README code block and table are no prose",
              edit("README.md", "## Layout\n",
                   f"## Layout\n\n```sh\n{words}\n```\n\n| a | {words} |\n"))
    unchanged("attributes and log components in comments count for nothing",
              edit("model/packet/mose-ocs.cc", 'NS_LOG_COMPONENT_DEFINE("MoseOcs");',
                   'NS_LOG_COMPONENT_DEFINE("MoseOcs");\n// NS_LOG_COMPONENT_DEFINE("MoseX");\n'
                   '/* TypeId("ns3::MoseX").AddAttribute("X", */\n'
                   'static const char* u = "http://x//y/*";\n'))
    unchanged("an ObjectFactory's SetTypeId registers no TypeId",
              edit("model/packet/mose-ocs.cc", 'NS_LOG_COMPONENT_DEFINE("MoseOcs");',
                   'NS_LOG_COMPONENT_DEFINE("MoseOcs");\nvoid F(ObjectFactory f) '
                   '{ f.SetTypeId("ns3::MoseX"); }'))
    return 1 if failures else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) == 3 and argv[1] == "--sentences":
        for line in sentence_figures(argv[2]):
            print(line)
        return 0
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
