#!/usr/bin/env python3
# Runs examples/mose-fabric (ctest: mose-fabric-example) and checks what it prints: every
# transfer of every P-D pair completes with its bytes, FCTs and throughputs are positive and
# within the circuit rate, nothing is lost, the MoSE template carries each KV transfer on a direct
# circuit and S-Train does not; two runs print the same and write the same pcap trace; a bad
# option ends with exit status 1 and a message naming it.
#
#   cmake/mose-check-fabric.py BUILD_DIR/bin/mose-fabric
import os
import re
import subprocess
import sys
import tempfile

FLOW = re.compile(
    r"^flow (\d+): P (\d+) -> D (\d+) \((\S+) -> (\S+)\), hops (\d+), received (\d+) B, "
    r"FCT ([0-9.]+) ms, throughput ([0-9.]+) Gbit/s, lost (\d+)$"
)
SUMMARY = re.compile(r"^(\d+)/(\d+) transfers complete, mean FCT ([0-9.]+) ms, (\d+) packets lost$")
RATE_GBPS = 400  # ns3::MoseOcs::DataRate's default
BYTES = 1000000  # --bytes' default
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def run(program, args, folder):
    os.makedirs(folder, exist_ok=True)
    result = subprocess.run([program] + args, cwd=folder, capture_output=True, text=True,
                            timeout=300)
    return result


def parse(name, output):
    flows = []
    summary = None
    for line in output.splitlines():
        m = FLOW.match(line)
        if m:
            flows.append(m.groups())
        m = SUMMARY.match(line)
        if m:
            summary = (int(m.group(1)), int(m.group(2)), float(m.group(3)), int(m.group(4)))
    check(flows, f"{name}: no flow lines")
    check(summary is not None, f"{name}: no summary line")
    for f in flows:
        _, p, d, _, _, hops, received, fct, tput, lost = f
        check(int(received) == BYTES, f"{name}: flow {f[0]} received {received} of {BYTES} B")
        check(0 < float(fct) < 1000, f"{name}: flow {f[0]} FCT {fct} ms")
        check(0 < float(tput) <= RATE_GBPS, f"{name}: flow {f[0]} throughput {tput} Gbit/s")
        check(int(hops) >= 1 and p != d, f"{name}: flow {f[0]} P {p} -> D {d} in {hops} hops")
        check(int(lost) == 0, f"{name}: flow {f[0]} lost {lost} packets")
    if summary:
        done, total, mean, lost = summary
        check(done == total == len(flows), f"{name}: {done}/{total} complete, {len(flows)} flows")
        check(lost == 0, f"{name}: {lost} packets lost")
        fcts = [float(f[7]) for f in flows]
        check(fcts and abs(mean - sum(fcts) / len(fcts)) < 0.002,
              f"{name}: mean FCT {mean} ms, the flows' FCTs {fcts}")
    return flows, summary


def main():
    program = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="mose-fabric-check.") as work:
        outputs = []
        mose_summary = None
        for i in (1, 2):
            r = run(program, [], os.path.join(work, f"run{i}"))
            if not check(r.returncode == 0, f"run {i}: exit status {r.returncode}: {r.stderr}"):
                break
            outputs.append(r.stdout)
        if len(outputs) == 2:
            print(outputs[0], end="")
            mose, mose_summary = parse("MoSE", outputs[0])
            check(outputs[0] == outputs[1], "two runs print different output")
            check(all(int(f[5]) == 1 for f in mose), "MoSE: a KV transfer is not on a direct circuit")
            pcaps = sorted(p for p in os.listdir(os.path.join(work, "run1")) if p.endswith(".pcap"))
            if check(len(pcaps) == 1, f"pcap files written: {pcaps}"):
                first = open(os.path.join(work, "run1", pcaps[0]), "rb").read()
                second = open(os.path.join(work, "run2", pcaps[0]), "rb").read()
                # 24-byte file header, then 16 bytes per record header
                check(len(first) > 24 + 16 * 10, f"{pcaps[0]}: {len(first)} bytes")
                check(first == second, f"{pcaps[0]} differs between runs")
            m = re.search(r"^pcap: (\S+)", outputs[0], re.M)
            check(m and m.group(1) in pcaps, "the pcap line names another file")

        r = run(program, ["--policy=S-Train", "--pcap=false"], os.path.join(work, "strain"))
        if check(r.returncode == 0, f"S-Train: exit status {r.returncode}: {r.stderr}"):
            strain, strain_summary = parse("S-Train", r.stdout)
            check(any(int(f[5]) > 1 for f in strain), "S-Train: every KV transfer on a direct circuit")
            # the paper's point at the packet level: direct P-D circuits shorten the KV transfers
            if mose_summary and strain_summary:
                check(mose_summary[2] < strain_summary[2],
                      f"mean KV FCT MoSE {mose_summary[2]} ms, S-Train {strain_summary[2]} ms")
            check(not any(p.endswith(".pcap") for p in os.listdir(os.path.join(work, "strain"))),
                  "--pcap=false wrote a pcap file")

        r = run(program, ["--policy=bogus"], os.path.join(work, "bad"))
        check(r.returncode == 1 and "--policy" in r.stdout + r.stderr,
              f"--policy=bogus: exit status {r.returncode}, output {r.stdout + r.stderr!r}")
    for f in failures:
        print("FAIL", f)
    print("mose-fabric:", "FAILED" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
