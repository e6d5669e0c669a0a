# Sourced by the benchmark scripts (bench-*.sh) for their --markdown flag: the results as rows of
# docs/performance.md's tables, whose columns are
#
#   | figure | measured | target | met? | command | date | load |
#
# A person regenerates a table by running the script with --markdown and pasting the rows over the
# old ones. md_start sends the script's usual report to standard error (it still shows progress)
# and keeps standard output for the rows; the load column is the 1-minute load average of
# /proc/loadavg when the run started and when the row was printed.

# md_start COMMAND: call once, before the measurements; COMMAND is what the command column shows.
md_start() {
	md_command=$1
	md_date=$(date -u '+%Y-%m-%d')
	md_load_start=$(cut -d' ' -f1 /proc/loadavg)
	exec 3>&1 1>&2
}

# md_row FIGURE MEASURED TARGET MET: one row on the standard output kept by md_start.
md_row() {
	printf '| %s | %s | %s | %s | `%s` | %s | %s to %s |\n' "$1" "$2" "$3" "$4" "$md_command" "$md_date" \
		"$md_load_start" "$(cut -d' ' -f1 /proc/loadavg)" >&3
}
