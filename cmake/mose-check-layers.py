#!/usr/bin/env python3
# Copyright (c) 2026 The mose authors
# SPDX-License-Identifier: GPL-2.0-only
"""The module's layers, checked from the includes of its sources (ctest: mose-layers).

The rooms (doc/mose.rst, "Layout"), lowest first; a file may include its own room and the rooms
below it, never one above:

  model/support   errors, parsing, random streams, hashing, attribute text, ns-3 compatibility
  model/flow      the Simulator-free flow level (templates, traffic, routing, metrics, LLM inputs)
  model/workload  the workload model: the LLM workloads written once against a small fabric
                  interface (WorkloadFabric), without a Simulator
  model/fluid     the fluid and aggregate levels: max-min fair flows, the fluid fabric, its
                  workload backend, without a Simulator
  model/packet    the ns-3 Objects of the packet level (OCS, routing protocol, switcher, monitors)
  helper          what installs onto nodes (topology, routing, traffic, mode switcher helpers)
  helper/study    the programs' study library (drivers, reports, options, the scaffold)

helper/study is sorted by job into sub-rooms (STUDY_ROOMS), lowest first; a study file may
include its own sub-room, the sub-rooms below it and the rooms below helper/study, never a
sub-room above; a file directly in helper/study or in a folder of it that is no sub-room is
refused:

  helper/study/runs        many runs: run selection, run records, the worker pool (--jobs)
  helper/study/flow        the flow-level study, its report, sweep, baselines, switch cost, seeds
  helper/study/experiment  the packet-level experiment and its presets, the policy comparison
  helper/study/llm         the LLM studies (comparison, regime map and figure, level validation)
  helper/study/report      the reports of the sweep, the switch cost and the switch experiment
  helper/study/cli         the programs' scaffold (Program) and their options classes

model/support, model/flow, model/workload and model/fluid must stay free of the simulator: they include no ns-3 header of the
simulator, nodes, devices, channels, IPv4, point-to-point or applications (ns-3's core value
types such as ptr.h, attribute.h and random-variable-stream.h are allowed: they run without a
Simulator). The headers of the six lower rooms are the module's (installed, in ns3/mose-module.h)
and are included as "ns3/<file>.h" from another room; the study library's (helper/study) are not
installed and are included as "<file>.h", without their sub-room, from anywhere (the rooms,
examples/, test/, bench/; every sub-room is on the include path of what links mose-study).
Every source of the six lower rooms must be listed in CMakeLists.txt (the library) and every
helper/study source in cmake/mose-study.cmake (the study library), each in that file only, and
every listed file must exist, so that a file cannot sit in a room without being built.

The namespace rule (doc/mose.rst, "Names"), read from the declarations at namespace scope:
model/support, model/flow, model/workload, model/fluid and helper/study declare everything in
ns3::mose (or a namespace inside
it) and no name there carries the Mose prefix, the namespace being the prefix; model/packet and
helper declare the ns-3 Objects and their installers in ns3, as every ns-3 module does, and every
type, function and constant there begins with Mose. Forward declarations, operators, anonymous
namespaces and NS_LOG component names (global across ns-3, so they keep the prefix) are not
declarations of the module's names.

Usage: mose-check-layers.py SOURCE_DIR      check the tree, exit 1 with one line per violation
       mose-check-layers.py --self-test     check that each rule catches a planted violation
"""

import os
import re
import sys
import tempfile

ROOMS = [
    "model/support",
    "model/flow",
    "model/workload",
    "model/fluid",
    "model/packet",
    "helper",
    "helper/study",
]
SIMULATOR_FREE = {"model/support", "model/flow", "model/workload", "model/fluid"}
# ns-3 headers that need the simulator or the packet-level stack (by file name, without "ns3/")
SIMULATOR_HEADER = re.compile(
    r"^(simulator|simulator-impl|scheduler|event-id|event-impl|node|node-container|node-list"
    r"|net-device|net-device-container|channel|packet|socket|socket-factory|application"
    r"|application-container|ipv4[a-z0-9-]*|internet-[a-z0-9-]*|point-to-point[a-z0-9-]*"
    r"|traffic-control[a-z0-9-]*|queue-disc|flow-monitor[a-z0-9-]*|[a-z0-9-]+-module)\.h$"
)
MOSE_NAMESPACE = {"model/support", "model/flow", "model/workload", "model/fluid", "helper/study"}
STUDY = "helper/study"
# the sub-rooms of helper/study, lowest first (cmake/mose-study.cmake, MOSE_STUDY_ROOMS)
STUDY_ROOMS = [
    "helper/study/runs",
    "helper/study/flow",
    "helper/study/experiment",
    "helper/study/llm",
    "helper/study/report",
    "helper/study/cli",
]
# the build file that lists a room's sources: the library's, or the study library's
LIST_FILES = {"CMakeLists.txt": "the library", "cmake/mose-study.cmake": "the study library"}
# folders outside the rooms whose includes of study headers are checked
CLIENTS = ("examples", "test", "bench")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')
LISTED = re.compile(r"^\s+((?:model|helper)/\S+\.(?:h|cc))\s*$")


def list_file_of(rel):
    """The build file that must list a source of the rooms."""
    return "cmake/mose-study.cmake" if room_of(rel) == STUDY else "CMakeLists.txt"


def room_of(rel):
    """The room of a path relative to the source dir: its folder, or helper/study for a file of
    a study sub-room."""
    folder = os.path.dirname(rel)
    if folder in STUDY_ROOMS:
        return STUDY
    return folder if folder in ROOMS else None


def sub_room_of(rel):
    """The study sub-room of a path relative to the source dir, or None."""
    folder = os.path.dirname(rel)
    return folder if folder in STUDY_ROOMS else None


def blank_out(text):
    """Comments, string and character literals and preprocessor lines as blanks (lines kept)."""
    pattern = re.compile(
        r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*",
        re.S | re.M,
    )
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


NOT_NAMES = {"if", "for", "while", "switch", "return", "sizeof", "decltype", "operator"}


def declarations(text):
    """Yields (line, namespaces, name) for each name the text declares at namespace scope.

    A brace-level reading, not a C++ parser: it sees class, struct, enum and union definitions,
    aliases, functions and variables whose statement begins at namespace scope, which is what a
    header of this module declares; qualified definitions (X::F) and forward declarations are
    skipped.
    """
    t = blank_out(text)
    stack = []  # a namespace's name, or None for any other brace
    start = 0
    statements = []
    for m in re.finditer(r"[{};]", t):
        stmt = t[start : m.start()]
        at_namespace = all(s is not None for s in stack)
        line = t.count("\n", 0, m.start()) + 1
        if m.group(0) == "{":
            ns = re.search(r"\bnamespace\s+(\w*)\s*$", stmt)
            if ns:
                stack.append(ns.group(1) or "(anonymous)")
            else:
                if at_namespace:
                    statements.append((line, tuple(stack), stmt))
                stack.append(None)
        elif m.group(0) == "}":
            if stack:
                stack.pop()
        elif at_namespace:
            statements.append((line, tuple(stack), stmt + ";"))
        start = m.end()
    for line, ns, stmt in statements:
        s = re.sub(r"^template\s*<[^{;]*?>\s*", "", " ".join(stmt.split()))
        if not s or s == ";" or re.search(r"\boperator\b", s):
            continue
        if s.startswith(("using namespace", "typedef ", "extern ", "static_assert", "NS_", "friend ")):
            continue
        m = re.match(r"^(?:enum\s+(?:class\s+|struct\s+)?|class\s+|struct\s+|union\s+)(\w+)\s*(?:final\s*)?([:{;<]|$)", s)
        if m:
            if m.group(2) not in (";", "<"):  # not a forward declaration or a specialisation
                yield line, ns, m.group(1)
            continue
        m = re.match(r"^using\s+(\w+)\s*=", s) or re.match(
            r"^(?:(?:inline|static|constexpr|const|\[\[\w+\]\])\s+)*[\w:<>,\s*&]+?[\s*&](\w+)\s*[(=;{\[]", s
        )
        if m and m.group(1) not in NOT_NAMES:
            yield line, ns, m.group(1)


def namespace_problems(rel, text):
    """The declarations of one file that break the namespace rule."""
    room = room_of(rel)
    problems = []
    for line, ns, name in declarations(text):
        if "(anonymous)" in ns:
            continue
        where = "::".join(ns) or "the global namespace"
        if room in MOSE_NAMESPACE:
            if ns[:2] != ("ns3", "mose"):
                problems.append(f"{rel}:{line}: {name} is in {where}; {room} declares in ns3::mose")
            elif re.match(r"Mose[A-Z_]|.*[a-z]Mose[A-Z]", name):
                problems.append(f"{rel}:{line}: {name} in ns3::mose carries the Mose prefix")
        else:
            if ns != ("ns3",):
                problems.append(f"{rel}:{line}: {name} is in {where}; {room} declares in ns3")
            elif not name.startswith("Mose"):
                problems.append(f"{rel}:{line}: {name} in ns3 lacks the Mose prefix")
    return problems


def scan(src):
    """Returns the list of violations in the tree at src."""
    problems = []
    home = {}  # header file name -> room
    folder_of = {}  # header file name -> its folder (the room, or the study sub-room)
    files = []
    for folder in [r for r in ROOMS if r != STUDY] + STUDY_ROOMS:
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            full = os.path.join(path, name)
            if not os.path.isfile(full):
                continue
            rel = folder + "/" + name
            if not (name.endswith(".h") or name.endswith(".cc")):
                continue
            files.append(rel)
            if name.endswith(".h"):
                if name in home:
                    problems.append(f"{rel}: header name also used by {folder_of[name]}/{name}")
                home[name] = room_of(rel)
                folder_of[name] = folder
    study = os.path.join(src, STUDY)
    if os.path.isdir(study):
        for name in sorted(os.listdir(study)):
            rel = STUDY + "/" + name
            if os.path.isfile(os.path.join(study, name)):
                problems.append(
                    f"{rel}: a study file outside the sub-rooms {', '.join(STUDY_ROOMS)}"
                )
            elif rel not in STUDY_ROOMS:
                problems.append(f"{rel}/: not one of the study sub-rooms {', '.join(STUDY_ROOMS)}")
    for top in ("model", "helper"):
        path = os.path.join(src, top)
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                rel = top + "/" + name
                if os.path.isfile(os.path.join(path, name)) and top == "model":
                    problems.append(f"{rel}: a model file outside model/support, flow or packet")
            for sub in sorted(os.listdir(path)):
                rel = top + "/" + sub
                if os.path.isdir(os.path.join(src, rel)) and rel not in ROOMS:
                    problems.append(f"{rel}/: not one of the rooms {', '.join(ROOMS)}")

    for rel in files:
        room = room_of(rel)
        rank = ROOMS.index(room)
        sub_room = sub_room_of(rel)
        with open(os.path.join(src, rel), encoding="utf-8") as f:
            text = f.read()
        problems.extend(namespace_problems(rel, text))
        for number, line in enumerate(text.splitlines(True), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            name = target[4:] if target.startswith("ns3/") else target
            if "/" in name:
                continue
            if room in SIMULATOR_FREE and target.startswith("ns3/") and SIMULATOR_HEADER.match(name):
                problems.append(
                    f"{rel}:{number}: {room} must run without a Simulator, but includes {target}"
                )
            if name in home and ROOMS.index(home[name]) > rank:
                problems.append(
                    f"{rel}:{number}: {room} includes {target} from {home[name]}, a room above it"
                )
            if (
                sub_room
                and home.get(name) == STUDY
                and STUDY_ROOMS.index(folder_of[name]) > STUDY_ROOMS.index(sub_room)
            ):
                problems.append(
                    f"{rel}:{number}: {sub_room} includes {target} from {folder_of[name]}, "
                    "a study sub-room above it"
                )
            if name in home and home[name] == STUDY and target.startswith("ns3/"):
                problems.append(
                    f'{rel}:{number}: "{target}" is a study header ({STUDY}, not installed): '
                    f'include it as "{name}"'
                )
            elif (
                name in home
                and not target.startswith("ns3/")
                and home[name] not in (room, STUDY)
            ):
                problems.append(
                    f'{rel}:{number}: "{target}" is in {home[name]}: include it as "ns3/{name}"'
                )

    # the programs, tests and benchmarks include the study headers as they are found
    for top in CLIENTS:
        for dirpath, _, filenames in os.walk(os.path.join(src, top)):
            for n in sorted(filenames):
                if not n.endswith((".h", ".cc")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, n), src)
                with open(os.path.join(dirpath, n), encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        name = m.group(1)[4:] if m and m.group(1).startswith("ns3/") else None
                        if name and home.get(name) == STUDY:
                            problems.append(
                                f'{rel}:{number}: "ns3/{name}" is a study header ({STUDY}, not '
                                f'installed): include it as "{name}"'
                            )

    listed = {}  # build file -> set of sources it lists
    for build_file in LIST_FILES:
        path = os.path.join(src, build_file)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                listed[build_file] = {m.group(1) for m in map(LISTED.match, f) if m}
    if listed:
        for rel in files:
            home_file = list_file_of(rel)
            if rel not in listed.get(home_file, set()):
                problems.append(f"{rel}: not listed in {home_file} ({LIST_FILES[home_file]})")
            for other in listed:
                if other != home_file and rel in listed[other]:
                    problems.append(
                        f"{rel}: listed in {other} ({LIST_FILES[other]}); it belongs in {home_file}"
                    )
        for build_file, names in listed.items():
            for rel in sorted(names):
                if not os.path.isfile(os.path.join(src, rel)):
                    problems.append(f"{build_file} lists {rel}, which does not exist")
    return problems


def self_test():
    """Plants one violation per rule in a small tree and checks that each is reported."""
    cases = {
        "simulator in flow": ("model/flow/mose-a.cc", '#include "ns3/simulator.h"\n', "without a Simulator"),
        "ipv4 in support": ("model/support/mose-a.cc", '#include "ns3/ipv4-address.h"\n', "without a Simulator"),
        "packet from flow": ("model/flow/mose-a.cc", '#include "ns3/mose-p.h"\n', "a room above"),
        "study from helper": ("helper/mose-a.cc", '#include "mose-s.h"\n', "a room above"),
        "study header as ns3/": (
            "helper/study/flow/mose-a.h",
            '#include "ns3/mose-s.h"\n',
            'a study header (helper/study, not installed): include it as "mose-s.h"',
        ),
        "relative across rooms": ("model/packet/mose-a.cc", '#include "mose-f.h"\n', 'include it as "ns3/'),
        "model file outside rooms": ("model/mose-b.cc", "\n", "outside model/support"),
        "flow type in ns3": ("model/flow/mose-a.cc", "namespace ns3 {\nstruct Flow {};\n}\n", "declares in ns3::mose"),
        "study sub-room above": (
            "helper/study/flow/mose-a.h",
            '#include "mose-c.h"\n',
            "helper/study/flow includes mose-c.h from helper/study/cli, a study sub-room above it",
        ),
        "study file outside the sub-rooms": ("helper/study/mose-b.cc", "\n", "outside the sub-rooms"),
        "prefix in ns3::mose": (
            "helper/study/flow/mose-a.h",
            "namespace ns3 {\nnamespace mose {\nclass MoseSweep\n{\n};\n}\n}\n",
            "carries the Mose prefix",
        ),
        "prefix in a function": (
            "model/support/mose-a.cc",
            "namespace ns3 {\nnamespace mose {\nint RunMoseProgram(int a);\n}\n}\n",
            "carries the Mose prefix",
        ),
        "object in ns3::mose": (
            "model/packet/mose-a.cc",
            "namespace ns3 {\nnamespace mose {\nclass MoseOcs : public Object\n{\n};\n}\n}\n",
            "declares in ns3",
        ),
        "unprefixed in ns3": ("helper/mose-a.cc", "namespace ns3 {\nconst int LIMIT = 3;\n}\n", "lacks the Mose prefix"),
    }
    failed = 0
    for what, (rel, text, expect) in cases.items():
        with tempfile.TemporaryDirectory() as src:
            base = {
                "model/flow/mose-f.h": "",
                "model/packet/mose-p.h": '#include "ns3/mose-f.h"\n',
                "helper/study/flow/mose-s.h": '#include "ns3/mose-p.h"\n#include "mose-s2.h"\n',
                "helper/study/flow/mose-s2.h": "",
                "helper/study/cli/mose-c.h": '#include "mose-s.h"\n#include "ns3/mose-f.h"\n',
                "model/flow/mose-a.cc": "",
                "model/support/mose-a.cc": "",
                "model/packet/mose-a.cc": "",
                "helper/mose-a.cc": "",
                "helper/study/flow/mose-a.h": "",
            }
            base[rel] = text
            for path, content in base.items():
                os.makedirs(os.path.join(src, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(src, path), "w", encoding="utf-8") as f:
                    f.write(content)
            clean = scan(src)
            hit = [p for p in clean if expect in p and p.startswith(rel)]
            if len(hit) != 1 or len(clean) != 1:
                print(f"self-test '{what}': expected one violation of {rel} ({expect}), got {clean}")
                failed += 1
    # the build files: each source listed in its own, once
    listing = {
        "a library source unlisted": ("CMakeLists.txt", "model/flow/mose-f.cc", "", "not listed in CMakeLists.txt"),
        "a study source in the library": (
            "CMakeLists.txt",
            "helper/study/flow/mose-s.cc",
            "    helper/study/flow/mose-s.cc\n",
            "listed in CMakeLists.txt (the library); it belongs in cmake/mose-study.cmake",
        ),
        "a study source unlisted": (
            "cmake/mose-study.cmake",
            "helper/study/flow/mose-s.cc",
            "",
            "not listed in cmake/mose-study.cmake",
        ),
        "a study header as ns3/ in a test": ("test/x-test.cc", "", "", 'include it as "mose-s.h"'),
    }
    for what, (build_file, rel, extra, expect) in listing.items():
        with tempfile.TemporaryDirectory() as src:
            files = {
                "model/flow/mose-f.cc": "",
                "helper/study/flow/mose-s.cc": "",
                "helper/study/flow/mose-s.h": "",
                "CMakeLists.txt": "    model/flow/mose-f.cc\n",
                "cmake/mose-study.cmake": "    helper/study/flow/mose-s.cc\n    helper/study/flow/mose-s.h\n",
                "test/x-test.cc": "",
            }
            if what == "a study header as ns3/ in a test":
                files["test/x-test.cc"] = '#include "ns3/mose-s.h"\n'
            elif extra:
                files[build_file] += extra
            else:
                files[build_file] = files[build_file].replace("    " + rel + "\n", "")
            for path, content in files.items():
                os.makedirs(os.path.join(src, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(src, path), "w", encoding="utf-8") as f:
                    f.write(content)
            found = scan(src)
            if len(found) != 1 or expect not in found[0]:
                print(f"self-test '{what}': expected one problem ({expect}), got {found}")
                failed += 1
    cases.update(listing)
    # and the clean tree passes
    with tempfile.TemporaryDirectory() as src:
        os.makedirs(os.path.join(src, "model/flow"))
        with open(os.path.join(src, "model/flow/mose-f.cc"), "w", encoding="utf-8") as f:
            f.write(
                '#include "mose-f.h"\n#include "ns3/log.h"\nnamespace ns3\n{\nNS_LOG_COMPONENT_DEFINE("MoseF");\n'
                "class Node;\nnamespace mose\n{\nnamespace\n{\nint MoseLocal = 1;\n}\n"
                "struct Flow\n{\n    int MoseMember;\n};\nvoid Flow::Run() {}\ntemplate <>\nstruct EnumTable<Flow>\n{\n};\n}\n}\n"
            )
        if scan(src):
            print(f"self-test 'clean tree': got {scan(src)}")
            failed += 1
    print(f"mose-check-layers self-test: {len(cases) + 1 - failed} of {len(cases) + 1} rules hold")
    return 1 if failed else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(__doc__.strip().splitlines()[-2].strip(), file=sys.stderr)
        return 2
    problems = scan(argv[1])
    for p in problems:
        print(p)
    if problems:
        print(f"mose layers: {len(problems)} violations")
        return 1
    count = sum(
        1
        for room in ROOMS + STUDY_ROOMS
        if os.path.isdir(os.path.join(argv[1], room))
        for n in os.listdir(os.path.join(argv[1], room))
        if n.endswith((".h", ".cc"))
    )
    print(
        f"mose layers: {count} files in {len(ROOMS)} rooms ({STUDY} in {len(STUDY_ROOMS)} sub-rooms),"
        " no include goes up or into the simulator, every name in its namespace"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
