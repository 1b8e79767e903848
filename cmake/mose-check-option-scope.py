#!/usr/bin/env python3
# Copyright (c) 2026 The mose authors
# SPDX-License-Identifier: GPL-2.0-only
"""doc/mose.rst's table "Where each option acts" checked against the code's (mose-option-scope-doc).

The programs consult one table of where each option acts, OPTION_SCOPES in
helper/study/cli/mose-option-scope.cc (one row a line: {"program", "--option", LEVELS, MODES}).
The documentation shows it as the simple table that follows the line ``.. option-scope-table``
in doc/mose.rst. This script reads both and fails, naming the rows, when they differ:

  cmake/mose-check-option-scope.py SOURCE_DIR            # check
  cmake/mose-check-option-scope.py SOURCE_DIR --print    # print the table the doc should hold
  cmake/mose-check-option-scope.py --self-test           # a changed row, a missing row: caught
"""
import os
import re
import sys

CODE = os.path.join("helper", "study", "cli", "mose-option-scope.cc")
DOC = os.path.join("doc", "mose.rst")
MARKER = ".. option-scope-table"

LEVEL_WORDS = [("AT_PACKET", "packet"), ("AT_FLUID", "fluid"), ("AT_AGGREGATE", "aggregate")]
# the mode bits by group (the code's PLACE_GROUPS), each group's words in the code's order
MODE_GROUPS = [[("IN_MAP", "map"), ("IN_ONE", "one"), ("IN_THRESHOLD", "threshold"),
                ("IN_MERGE_FILES", "merge"), ("IN_COMPARE_FILES", "compare"),
                ("IN_SUITE_FILES", "suite")],
               [("IN_TCP", "tcp"), ("IN_RDMA", "rdma")],
               [("IN_COMPARISON", "comparison"), ("IN_ONE_POLICY", "one policy")],
               [("IN_ALTERNATING", "alternating"), ("IN_SCHEDULE", "schedule")],
               [("IN_TORUS_2D", "torus-2d"), ("IN_TORUS_3D", "torus-3d"),
                ("IN_FULL_MESH_3D", "full-mesh-3d")],
               [("IN_ROLE_COUNTS", "role counts"), ("IN_PAPER_ROLES", "paper roles")],
               [("IN_RANDOM_ROUTING", "random routing"), ("IN_FIXED_ROUTING", "fixed routing")]]
# the line under the table that names the programs where every option acts
EVERY_LINE = "Every option acts in every run of: "
EXAMPLES = "examples"
# the constants of the .cc and of the header that stand for several bits
ALIASES = {"AT_ALL_LEVELS": ["AT_PACKET", "AT_FLUID", "AT_AGGREGATE"],
           "NO_PACKETS": ["AT_FLUID", "AT_AGGREGATE"],
           "LLM_MODES": ["IN_MAP", "IN_ONE"]}
ROW = re.compile(r'^\s*\{"(mose-[a-z-]+)", "(--[A-Za-z0-9]+)", ([A-Z_0-9| ]+), ([A-Z_0-9| ]+)\},\s*$')


def bits(expr):
    out = set()
    for name in (t.strip() for t in expr.split("|")):
        if name == "0":
            continue
        out.update(ALIASES.get(name, [name]))
    return out


def words(names, table, all_word=None):
    if not names:
        return "-"
    if all_word and names == {n for n, _ in table}:
        return all_word
    return ", ".join(w for n, w in table if n in names)


def mode_words(names):
    """The modes' words: a group's joined by ', ', the groups by '; '; 'all' for none."""
    if not names:
        return "all"
    groups = [", ".join(w for n, w in g if n in names) for g in MODE_GROUPS]
    return "; ".join(g for g in groups if g)


def every_option_acts(text):
    """The programs of the code's EVERY_OPTION_ACTS, in order."""
    m = re.search(r"EVERY_OPTION_ACTS = \{(.*?)\};", text, re.S)
    return re.findall(r'^\s*"(mose-[a-z-]+)",\s*$', m.group(1), re.M) if m else []


def code_rows(text):
    rows = []
    for line in text.split("\n"):
        m = ROW.match(line)
        if m:
            rows.append((m.group(1), "``" + m.group(2) + "``",
                         words(bits(m.group(3)), LEVEL_WORDS, "all"),
                         mode_words(bits(m.group(4)))))
    return rows


def render(rows):
    heads = ("Program", "Option", "Levels", "Modes")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    rule = "  ".join("=" * w for w in widths)

    def line(cells):
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    return "\n".join([rule, line(heads), rule] + [line(r) for r in rows] + [rule])


def doc_rows(text):
    """The rows of the simple table after MARKER: (program, option, levels, modes)."""
    lines = text.split("\n")
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == MARKER)
    except StopIteration:
        return None
    rules = 0
    rows = []
    for line in lines[start + 1:]:
        if re.match(r"^=+(  +=+)*\s*$", line):
            rules += 1
            if rules == 3:
                break
            continue
        if rules == 2 and line.strip():
            cells = re.split(r"\s{2,}", line.strip())
            rows.append(tuple(cells + [""] * (4 - len(cells)))[:4])
    return rows


def render_every(programs):
    return EVERY_LINE + ", ".join("``" + p + "``" for p in programs) + "."


def check_programs(code_text, doc_text, programs):
    """Every program is in the table or in EVERY_OPTION_ACTS, never both; the doc's line under
    the table names EVERY_OPTION_ACTS. -> list of problems."""
    problems = []
    every = every_option_acts(code_text)
    listed = {r[0] for r in code_rows(code_text)}
    for p in programs:
        if p not in listed and p not in every:
            problems.append(CODE + ": the program " + p + " has no row and is not in "
                            "EVERY_OPTION_ACTS (every program of examples/ is in one)")
    for p in every:
        if p in listed:
            problems.append(CODE + ": " + p + " is in EVERY_OPTION_ACTS and has rows")
        if programs and p not in programs:
            problems.append(CODE + ": EVERY_OPTION_ACTS names " + p + ", not a program of "
                            "examples/")
    if render_every(every) not in doc_text.replace("\n", " "):
        problems.append(DOC + ": no line '" + render_every(every) + "' (EVERY_OPTION_ACTS)")
    return problems


def check(code_text, doc_text, programs=()):
    """-> list of problems."""
    code = code_rows(code_text)
    doc = doc_rows(doc_text)
    if not code:
        return [CODE + ": no row of OPTION_SCOPES found"]
    if doc is None:
        return [DOC + ": no line '" + MARKER + "' before the table"]
    problems = []
    for r in code:
        if r not in doc:
            problems.append(DOC + ": the row " + " | ".join(r) + " of " + CODE +
                            " is missing or differs")
    for r in doc:
        if r not in code:
            problems.append(DOC + ": the row " + " | ".join(r) + " is not " + CODE + "'s")
    if not problems and code != doc:
        problems.append(DOC + ": the rows are in another order than " + CODE + "'s")
    return problems + check_programs(code_text, doc_text, programs)


def self_test():
    code = ('const std::vector<OptionScope> OPTION_SCOPES = {\n'
            '    {"mose-llm", "--trace", AT_ALL_LEVELS, IN_ONE},\n'
            '    {"mose-llm", "--rateEpoch", NO_PACKETS, IN_ONE},\n'
            '    {"mose-regime-figure", "--tolerance", 0, IN_MERGE_FILES},\n'
            '    {"mose-packet", "--pfc", AT_PACKET, IN_RDMA},\n'
            '    {"mose-packet", "--flowMonitor", AT_PACKET, 0},\n'
            '};\n'
            'const std::vector<std::string> EVERY_OPTION_ACTS = {\n'
            '    "mose-paper",\n'
            '};\n')
    programs = ["mose-llm", "mose-packet", "mose-paper", "mose-regime-figure"]
    good = ("Title\n\n" + MARKER + "\n\n" + render(code_rows(code)) + "\n\n" +
            render_every(every_option_acts(code)) + "\n\nAfter.\n")
    if ("mose-packet", "``--flowMonitor``", "packet", "all") not in code_rows(code):
        print("FAIL self-test: a row without modes is not 'all':", code_rows(code))
        failures_rows = 1
    else:
        failures_rows = 0
    failures = failures_rows
    if check(code, good, programs):
        print("FAIL self-test: the rendered table does not check:", check(code, good, programs))
        failures += 1
    for name, doc in [("changed", good.replace("fluid, aggregate", "fluid")),
                      ("missing", "\n".join(l for l in good.split("\n") if "--trace" not in l)),
                      ("no marker", good.replace(MARKER, "")),
                      ("no every-option line", good.replace(EVERY_LINE, "Every option: "))]:
        if not check(code, doc, programs):
            print("FAIL self-test: a", name, "row was not caught")
            failures += 1
    if not check(code, good, programs + ["mose-sweep"]):
        print("FAIL self-test: a program in neither list was not caught")
        failures += 1
    print("self-test:", "failed" if failures else "ok")
    return 1 if failures else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) < 2:
        print(__doc__)
        return 2
    root = argv[1]
    code_text = open(os.path.join(root, CODE), encoding="utf-8").read()
    if len(argv) > 2 and argv[2] == "--print":
        print(render(code_rows(code_text)))
        print()
        print(render_every(every_option_acts(code_text)))
        return 0
    programs = sorted(f[:-3] for f in os.listdir(os.path.join(root, EXAMPLES))
                      if f.startswith("mose-") and f.endswith(".cc"))
    problems = check(code_text, open(os.path.join(root, DOC), encoding="utf-8").read(), programs)
    for p in problems:
        print(p)
    if problems:
        print("run cmake/mose-check-option-scope.py . --print for the table the code gives")
        return 1
    print("option scopes: doc/mose.rst's table is the code's (%d rows)" %
          len(code_rows(code_text)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
