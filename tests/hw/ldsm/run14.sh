#!/bin/bash
# run14.sh: the fourteenth cp.async run on the H100 (gen_patterns14.py): run_lean.sh 14
exec bash "$(dirname "$0")/run_lean.sh" 14
