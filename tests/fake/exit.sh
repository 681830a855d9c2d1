#!/bin/sh
# exit.sh [STATUS]: exits at once, before reading anything (default status 0).
exit "${1:-0}"
