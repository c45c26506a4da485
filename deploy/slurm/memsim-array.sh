#!/bin/bash
# One shard of a memsim run per task of a Slurm job array. memsim takes its shard from
# SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT, and writes it to
# <output>/<name>/shard-i-of-N/ (on a file system the merge job can read).
#
# Submit (see the README's "Interrupted runs, shards and clusters"):
#   jobid=$(sbatch --parsable deploy/slurm/memsim-array.sh)
#   sbatch --dependency=afterok:$jobid deploy/slurm/memsim-merge.sh
#
#SBATCH --job-name=memsim
#SBATCH --array=1-{{SHARDS}}
#SBATCH --cpus-per-task=8
#SBATCH --output=memsim-%A-%a.log
set -euo pipefail
# --resume-or-start: a requeued task goes on from the checkpoint its killed try left.
memsim run --quiet --workers 0 --resume-or-start {{CONFIG}}
