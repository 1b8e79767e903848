#!/usr/bin/env python3
# Runs the examples that test/examples-to-run.py lists for ns-3's ./test.py, out of a tree
# (ctest: mose-examples-to-run): the list is read as test.py reads it (the same rules: comments
# cut at '#', the list ends at its first ']'), every listed program must exist in BIN_DIR (test.py
# silently skips a missing one), every run whose condition holds must exit with status 0 (a run
# still going after SECONDS_PER_RUN counts as a hang: no timing is checked, the time is printed,
# since a loaded machine runs anything slower), each in a folder of its own (test.py runs examples
# in a scratch folder too), and
# every example in examples/CMakeLists.txt must be listed or named in examples_not_run with the
# reason.
#
#   cmake/mose-examples-to-run.py SOURCE_DIR BIN_DIR [SECONDS_PER_RUN]
import os
import re
import subprocess
import sys
import tempfile
import time

# the configuration names test.py evaluates the conditions with, as a default ns-3 build sets them
CONDITIONS = {"ENABLE_REAL_TIME": False, "ENABLE_EXAMPLES": True, "ENABLE_TESTS": True,
              "ENABLE_PYTHON_BINDINGS": False, "NSCLICK": False, "ENABLE_BRITE": False,
              "ENABLE_OPENFLOW": False, "VALGRIND_FOUND": False}


def get_list_from_file(path, name):
    """The list `name` of the file, read the way ns-3's utils.py get_list_from_file reads it."""
    text = ""
    multiline = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if "#" in line:
                line = line.split("#", 1)[0]
            if name in line or multiline:
                text += line
                if "]" not in text:
                    multiline = True
                else:
                    return eval(text.split("=", 1)[1].strip())
    return []


def main():
    source, bin_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    hang = float(sys.argv[3]) if len(sys.argv) > 3 else 600.0
    listing = os.path.join(source, "test", "examples-to-run.py")
    examples = get_list_from_file(listing, "cpp_examples")
    not_run = get_list_from_file(listing, "examples_not_run")
    built = re.findall(r"NAME\s+(\S+)", open(os.path.join(source, "examples", "CMakeLists.txt")).read())
    failures = []
    if not examples:
        failures.append(f"{listing} lists no cpp_examples")
    listed = {e[0].split(" ", 1)[0] for e in examples}
    for name in built:
        if name not in listed and name not in {n for n, _ in not_run}:
            failures.append(f"{name} is neither in cpp_examples nor in examples_not_run")
    with tempfile.TemporaryDirectory(prefix="mose-examples-to-run.") as work:
        for k, (command, do_run, do_valgrind_run) in enumerate(examples):
            name, _, args = command.partition(" ")
            program = os.path.join(bin_dir, name)
            if not os.path.exists(program):
                failures.append(f"{command}: {program} is not built")
                continue
            if not eval(do_run, {}, dict(CONDITIONS)):
                print(f"skip {command} ({do_run})")
                continue
            eval(do_valgrind_run, {}, dict(CONDITIONS))  # must be a valid condition as well
            folder = os.path.join(work, str(k))
            os.makedirs(folder)
            start = time.monotonic()
            try:
                r = subprocess.run([program] + args.split(), cwd=folder, capture_output=True,
                                   text=True, timeout=hang)
                status = r.returncode
                output = r.stdout + r.stderr
            except subprocess.TimeoutExpired:
                status, output = "timeout", ""
            seconds = time.monotonic() - start
            print(f"{'ok  ' if status == 0 else 'FAIL'} {seconds:6.2f} s  {command}")
            if status != 0:
                failures.append(f"{command}: exit status {status}\n{output[-2000:]}")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
