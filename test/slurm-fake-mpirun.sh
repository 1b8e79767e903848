#!/usr/bin/env bash
# A stand-in for mpirun (MOSE_SLURM_MPIRUN) in test/slurm-check.sh, for utils/mose-slurm.sh's
# --mpi without an MPI build of ns-3: "slurm-fake-mpirun.sh -np RANKS PROGRAM ARGS..." checks
# RANKS and, inside a Slurm job, that the job holds RANKS Slurm tasks for the ranks
# (SLURM_NTASKS, what --mpi asks of sbatch); it appends "np=RANKS ntasks=N" to $FAKE_MPIRUN_LOG
# (when set) and runs PROGRAM once, as the process of rank 0 (the one that writes the records).
# Not a launcher: it starts no rank but that one.
set -euo pipefail
if [ "${1:-}" != -np ] || ! [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || [ $# -lt 3 ]; then
  echo "slurm-fake-mpirun.sh: usage: slurm-fake-mpirun.sh -np RANKS PROGRAM ARGS..." >&2
  exit 2
fi
np=$2
shift 2
if [ -n "${SLURM_JOB_ID:-}" ] && [ "${SLURM_NTASKS:-}" != "$np" ]; then
  echo "slurm-fake-mpirun.sh: -np $np, but Slurm job $SLURM_JOB_ID has ${SLURM_NTASKS:-no} tasks" >&2
  exit 1
fi
[ -z "${FAKE_MPIRUN_LOG:-}" ] || printf 'np=%s ntasks=%s\n' "$np" "${SLURM_NTASKS:-none}" >> "$FAKE_MPIRUN_LOG"
exec "$@"
