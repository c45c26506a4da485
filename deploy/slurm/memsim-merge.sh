#!/bin/bash
# Merges the shards of a memsim run once every task of the array has finished
# (submit with --dependency=afterok:<array job id>).
#
#SBATCH --job-name=memsim-merge
#SBATCH --cpus-per-task=2
#SBATCH --output=memsim-merge-%j.log
set -euo pipefail
memsim merge --out {{RUN_DIR}}/merged {{RUN_DIR}}/shard-*-of-{{SHARDS}}
