#! /usr/bin/env python3

# A list of C++ examples to run in order to ensure that they remain
# buildable and runnable over time.  Each tuple in the list contains
#
#     (example_name, do_run, do_valgrind_run).
#
# See test.py for more information.
#
# ns-3's ./test.py runs these in a tree (contrib/mose), each in a scratch folder, where the
# programs' output folders (results/...) land; out of a tree ctest's mose-examples-to-run runs
# the same list (cmake/mose-examples-to-run.py). The options are small runs of a second or less
# (optimized build): scaled role counts, few flows and seeds, no figures, no progress lines.
cpp_examples = [
    ("mose-fabric", "True", "True"),
    ("mose-fabric --mode=training-heavy --policy=S-Inf --pcap=false", "True", "True"),
    ("mose-paper --nodes=256 --prefill=102 --decode=102 --training=52 --trPrefill=25 --trDecode=25 --trTraining=206 --flows=20000 --seeds=4 --plot=false --progress=false", "True", "True"),
    ("mose-templates --nodes=256 --prefill=102 --decode=102 --training=52 --trPrefill=25 --trDecode=25 --trTraining=206 --flows=5000 --progress=false --outputDir=export", "True", "True"),
    ("mose-baselines --nodes=64 --prefill=24 --decode=24 --training=16 --trPrefill=8 --trDecode=8 --trTraining=48 --flows=2000 --seeds=2 --plot=false --progress=false", "True", "True"),
    ("mose-break-even --nodes=64 --prefill=24 --decode=24 --training=16 --trPrefill=8 --trDecode=8 --trTraining=48 --flows=2000 --seeds=2 --points=21 --plot=false --progress=false", "True", "True"),
    ("mose-sweep --nodes=64 --sweepNodes=64 --sweepDegrees=4,6 --prefill=24 --decode=24 --training=16 --trPrefill=8 --trDecode=8 --trTraining=48 --flows=500 --plot=false --progress=false", "True", "True"),
    ("mose-packet --nodes=16 --flows=100 --plot=false", "True", "True"),
    ("mose-mode-switch --nodes=16 --flows=40 --schedule=inference-heavy:150ms,training-heavy:150ms,inference-heavy:150ms --startWindow=20ms --policies=MoSE --plot=false", "True", "True"),
    ("mose-llm-script --groups=16 --degree=4 --requests=30", "True", "True"),
    ("mose-llm-script --groups=16 --degree=4 --requests=30 --transport=tcp", "True", "True"),
    ("mose-llm --map=false --nodes=16 --degree=4 --requests=30 --policies=MoSE,S-Train --schedule=inference-heavy:0.15s,training-heavy:0.15s,inference-heavy:0.15s", "True", "True"),
    ("mose-llm --map=false --nodes=16 --degree=4 --requests=30 --policies=MoSE,S-Train --schedule=inference-heavy:0.15s,training-heavy:0.15s,inference-heavy:0.15s --transport=tcp", "True", "True"),
    ("mose-llm --map=false --level=both --nodes=16 --degree=4 --requests=30 --policies=MoSE,S-Inf --schedule=inference-heavy:0.15s,training-heavy:0.15s,inference-heavy:0.15s --transport=tcp", "True", "True"),
    ("mose-llm --level=fluid --seeds=2 --flowLevelFlows=2000 --plot=false --transport=tcp", "True", "True"),
    ("mose-llm --map=false --nodes=16 --degree=4 --requests=30 --policies=MoSE --hostsPerGroup=8 --jumbo --schedule=inference-heavy:0.15s,training-heavy:0.15s --transport=tcp", "True", "True"),
    ("mose-llm --map=false --level=fluid --fluidQueues=true --nodes=64 --collective=ring-all-reduce --policies=MoSE --rate=800 --requests=2 --schedule=training-heavy:1.5s", "True", "True"),
]

# The module's examples that are not in the list, with the reason (read by
# cmake/mose-examples-to-run.py, which checks that every example is in one of the two lists;
# test.py ignores it).
examples_not_run = [
    ("mose-flow-eval", "needs a circuit graph and flows as files; test/examples-bad-input.sh runs it"),
    ("mose-regime-figure", "needs regime_map.csv files (mose-llm's); test/examples-bad-input.sh runs it on hand-made ones"),
    ("mose-mpi-check", "a test program (test/mose-mpi-check.cc) built only with MPI; needs mpirun, utils/mpi-check.sh runs it on 1 and 2 ranks"),
]

# A list of Python examples to run in order to ensure that they remain
# runnable over time.  Each tuple in the list contains
#
#     (example_name, do_run).
#
# See test.py for more information.
python_examples = []
