#!/bin/bash
# run13.sh: the thirteenth cp.async run on the H100 as measured (gen_patterns13.py): run_lean.sh 13
exec bash "$(dirname "$0")/run_lean.sh" 13
