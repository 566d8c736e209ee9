#!/bin/bash
# run12.sh: the twelfth cp.async run on the H100 as measured (gen_patterns12.py): run_lean.sh 12
exec bash "$(dirname "$0")/run_lean.sh" 12
