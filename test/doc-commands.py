#! /usr/bin/env python3
# Runs every shell command shown in README.md (```sh blocks) and doc/mose.rst (".. code-block::
# sh" blocks and "::" literal blocks whose every command starts with a known command), so that a
# documented command that no longer runs fails a test. Registered in ctest as
# mose-doc-commands:
#
#   test/doc-commands.py SOURCE_DIR BIN_DIR [--list]
#
# Commands run in order in one scratch folder (a command may read what an earlier one wrote,
# e.g. mose-templates --outputDir=results/export before mose-flow-eval reads it), each with a
# timeout. Commands that build, install or need an ns-3 tree are skipped (SKIP, with the
# reason); commands that take more than about 30 s on 2 cores run with options appended
# (REDUCED: later options win, so the appended ones replace the documented scale). --list
# prints what would run.
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

# first word of a command -> why it is not run
SKIP = {
    "utils/build.sh": "installs packages and builds; CI runs it",
    "utils/test.sh": "runs ctest, which runs this test",
    "utils/install-deps.sh": "installs Debian packages",
    "utils/time-quick-start.sh": "removes and reinstalls Debian packages; a timing run",
    "cmake": "configures, builds or installs",
    "ctest": "runs the test suite, which runs this test",
    "c++": "builds a program against an installed mose (test/install checks that)",
    "g++": "builds a program against an installed mose (test/install checks that)",
    "./ns3": "needs an ns-3 source tree",
    "./test.py": "needs an ns-3 source tree",
    "mpirun": "needs an ns-3 tree built with --enable-mpi",
    "utils/mpi-speed.sh": "needs an ns-3 tree built with --enable-mpi; a timing run (minutes)",
    "utils/mpi-check.sh": "needs an ns-3 tree built with --enable-mpi",
    "utils/event-cost.sh": "a timing run (minutes at N = 1024)",
    "utils/intree-check.sh": "builds an ns-3 tree; CI runs it",
    "utils/slurm-local.sh": "starts Slurm daemons; ctest -L slurm runs it (test/slurm-check.sh)",
    "utils/mose-slurm.sh": "needs a Slurm cluster; ctest -L slurm runs it (test/slurm-check.sh)",
    "sbatch": "needs a Slurm cluster",
    "utils/scale-check.sh": "a measurement run: packet-level cells at several scales (minutes)",
    "utils/paper-scale-map.sh": "a measurement run: the map at N = 1024 with 20 seeds (minutes)",
    "utils/packet-cell.sh": "a measurement run: a packet-level cell at N = 1024 (about an hour)",
    "utils/fluid-suite.sh": "a measurement run: 16 cells at two levels over 3 seeds (hours on 2 cores); ctest mose-fluid-suite runs a small one",
    "utils/paper-regime-grid.sh": "a measurement run: the whole grid at N = 1024 with 20 seeds (half an hour on 2 cores)",
    "sudo": "installs packages",
    "apt": "installs packages",
    "apt-get": "installs packages",
    "bench/compare-python.py": "needs igraph and NetworkX; a benchmark, not a check",
    "build/bin/mose-bench-evaluate-bench": "Google Benchmark timing run (minutes)",
    "build/bin/mose-bench-packet-bench": "Google Benchmark timing run (minutes)",
    "git": "works on the repository",
    "cd": "changes folder only",
    "ln": "links a source tree",
    "cp": "copies a source tree",
}

# whole commands (as extracted, continuation lines joined) that are not run, with the reason
SKIP_COMMANDS = {
    "build/bin/mose-packet --graph=my.csv --policies=MoSE": "my.csv stands for the user's file",
    "NS_LOG='MoseModeSwitcher=level_error' ...": "'...' stands for any program",
}

# single commands that take more than ~30 s as documented: options appended (the flows that
# mose-packet then reads from results/n64 are drawn here)
COMMAND_REDUCED = {
    "build/bin/mose-templates --nodes=64 --outputDir=results/n64": "--flows=200",
    # the shapes are those of N = 1024: the scale stays, the flows and seeds shrink
    "build/bin/mose-baselines --torus3d=16x8x8 --fullMesh3d=8x8x16":
        "--flows=2000 --seeds=1 --progress=false",
}

# programs whose documented commands take more than ~30 s: options appended to every one of
# their commands (the i16 engineer may change mose-llm's options: keep its entry minimal)
SMALL = ("--nodes=64 --prefill=24 --decode=24 --training=16 --trPrefill=8 --trDecode=8 "
         "--trTraining=48")
REDUCED = {
    "mose-paper": SMALL + " --flows=2000 --seeds=2 --progress=false",
    "mose-baselines": SMALL + " --flows=2000 --seeds=2 --progress=false",
    "mose-break-even": SMALL + " --flows=2000 --seeds=2 --points=21 --progress=false",
    # (no --nodes: without role counts it names no point, and mose-sweep refuses it)
    "mose-sweep": "--sweepNodes=64 --sweepDegrees=4,6 --sweepR=1,3 --flows=500 "
                  "--seeds=1 --progress=false",
    "mose-packet": "--nodes=16 --flows=100",
    "mose-mode-switch": "--nodes=16 --flows=40 --policies=MoSE",
    # the regime map (the default): one cell at N = 16 without the flow-level break-even
    "mose-llm": "--nodes=16 --degree=4 --loads=25 --intervals=150ms --flowLevelFlows=0",
}
# mose-llm --map=false: one policy on few requests (each policy takes 10-30 s even at N = 16;
# with --trace the trace's own requests, which --requests would not shorten)
REDUCED_ONE_LLM = "--nodes=16 --degree=4 --policies=MoSE"
REDUCED_ONE_LLM_GENERATED = REDUCED_ONE_LLM + " --requests=20"

# a command whose documented scale must stay (its files were written at that N): no REDUCED
KEEP_SCALE_OPTIONS = ("--inferenceRolesFile", "--trainingRolesFile", "--graph")

# a literal block is shell if every command in it starts with one of these
COMMAND_START = re.compile(r"^(build/bin/|\./|utils/|bench/|mose-|cmake\b|ctest\b|c\+\+\b|"
                           r"g\+\+\b|sudo\b|apt(-get)?\b|NS_LOG=|git\b|cd\b)")


def join_lines(lines):
    """Joins continuation lines, drops comments and blank lines: the commands of a block."""
    commands = []
    current = ""
    for line in lines:
        line = line.strip()
        if not line and not current:
            continue
        if line.startswith("#") and not current:
            continue
        if line.endswith("\\"):
            current += line[:-1].rstrip() + " "
            continue
        current += line
        # the comment after a command: "#" preceded by white space
        current = re.sub(r"\s+#.*$", "", current).strip()
        if current:
            commands.append(current)
        current = ""
    return commands


def readme_blocks(text):
    return re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)


def rst_blocks(text):
    """The .. code-block:: sh blocks and the :: literal blocks, as text."""
    lines = text.split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        line = lines[i]
        shell = re.match(r"^\s*\.\. code-block::\s*(sh|bash|console)\s*$", line)
        literal = line.rstrip().endswith("::") and not line.strip().startswith("..")
        if not (shell or literal):
            i += 1
            continue
        indent = len(line) - len(line.lstrip())
        i += 1
        body = []
        while i < len(lines) and (not lines[i].strip() or
                                  len(lines[i]) - len(lines[i].lstrip()) > indent):
            body.append(lines[i])
            i += 1
        commands = join_lines(body)
        if shell or (commands and all(COMMAND_START.match(c) for c in commands)):
            blocks.append("\n".join(body))
    return blocks


def commands_of(source):
    out = []
    readme = open(os.path.join(source, "README.md"), encoding="utf-8").read()
    for block in readme_blocks(readme):
        out += [("README.md", c) for c in join_lines(block.split("\n"))]
    rst = open(os.path.join(source, "doc", "mose.rst"), encoding="utf-8").read()
    for block in rst_blocks(rst):
        out += [("doc/mose.rst", c) for c in join_lines(block.split("\n"))]
    # each command once, in first-seen order
    seen = set()
    unique = []
    for where, c in out:
        if c not in seen:
            seen.add(c)
            unique.append((where, c))
    return unique


def plan(command, bindir):
    """-> (argv or None, note): what to run for a documented command."""
    if command in SKIP_COMMANDS:
        return None, "skip: " + SKIP_COMMANDS[command]
    words = shlex.split(command)
    env = {}
    while words and re.match(r"^[A-Z_]+=", words[0]):
        k, v = words.pop(0).split("=", 1)
        env[k] = v
    if not words:
        return None, "skip: no command"
    first = words[0]
    if first in SKIP:
        return None, "skip: " + SKIP[first]
    if "$(" in command or any(w in ("&&", "||", "|", ";") for w in words):
        return None, "skip: a compound shell command (builds or installs)"
    program = os.path.basename(first)
    if not program.startswith("mose-"):
        return None, "FAIL: unknown command (add it to SKIP with a reason, or map it)"
    path = os.path.join(bindir, program)
    argv = [path] + words[1:]
    note = ""
    if command in COMMAND_REDUCED:
        argv += shlex.split(COMMAND_REDUCED[command])
        note = "reduced: + " + COMMAND_REDUCED[command]
    elif program == "mose-llm" and "--map=false" in words:
        extra = REDUCED_ONE_LLM if any(w.startswith("--trace=") for w in words) \
            else REDUCED_ONE_LLM_GENERATED
        argv += shlex.split(extra)
        note = "reduced: + " + extra
    elif program in REDUCED and not any(o in command for o in KEEP_SCALE_OPTIONS):
        argv += shlex.split(REDUCED[program])
        note = "reduced: + " + REDUCED[program]
    return (argv, env), note


def main():
    if len(sys.argv) < 3:
        print("usage: doc-commands.py SOURCE_DIR BIN_DIR [--list]")
        return 2
    source, bindir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    listing = "--list" in sys.argv[3:]
    failed = 0
    ran = 0
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="mose-doc-commands.") as work:
        # the examples' trace files, which commands name relative to the source folder
        os.symlink(os.path.join(source, "examples"), os.path.join(work, "examples"))
        for where, command in commands_of(source):
            what, note = plan(command, bindir)
            if what is None:
                print(f"{note:<60} {where}: {command}")
                failed += note.startswith("FAIL")
                continue
            argv, env = what
            if listing:
                print(f"run {where}: {command}" + (f"   [{note}]" if note else ""))
                continue
            t = time.time()
            try:
                r = subprocess.run(argv, cwd=work, env=dict(os.environ, **env),
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=120)
                rc, output = r.returncode, r.stdout.decode(errors="replace")
            except subprocess.TimeoutExpired:
                rc, output = "timeout (120 s)", ""
            ran += 1
            status = "ok  " if rc == 0 else "FAIL"
            print(f"{status} {time.time() - t:6.1f} s  {where}: {command}"
                  + (f"   [{note}]" if note else ""))
            if rc != 0:
                failed += 1
                print(f"     exit status {rc}: " + " ".join(shlex.quote(a) for a in argv))
                for line in output.strip().split("\n")[-5:]:
                    print("     " + line)
    print(f"{ran} documented commands run, {failed} failed, {time.time() - start:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
