# Sourced by the benchmark scripts (bench-*.sh) for their --markdown flag: the results as rows of
# docs/performance.md's tables, whose columns are
#
#   | figure | measured | target | met? | command | date | load |
#
# A person regenerates a table by running the script with --markdown and pasting the rows over the
# old ones. md_start sends the script's usual report to standard error (it still shows progress)
# and keeps standard output for the rows; the load column is the 1-minute load average of
# /proc/loadavg when the run started and when the row was printed.

# md_start WORD...: call once, before the measurements; the words are the command the command
# column shows (a word with characters a shell would read apart is shown in single quotes).
md_start() {
	local w
	md_command=""
	for w in "$@"; do
		case $w in
		[A-Za-z_]*=*) # NAME=VALUE: the value quoted, as a shell reads an assignment
			case ${w%%=*} in
			*[!A-Za-z0-9_]*) w=$(md_quote "$w") ;;
			*) w="${w%%=*}=$(md_quote "${w#*=}")" ;;
			esac ;;
		*) w=$(md_quote "$w") ;;
		esac
		md_command="${md_command:+$md_command }$w"
	done
	md_date=$(date -u '+%Y-%m-%d')
	md_load_start=$(cut -d' ' -f1 /proc/loadavg)
	exec 3>&1 1>&2
}

# md_quote WORD: WORD, in single quotes when it has characters a shell would read apart.
md_quote() {
	case $1 in
	*[!A-Za-z0-9._/=:,+-]* | '') printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
	*) printf '%s' "$1" ;;
	esac
}

# md_row FIGURE MEASURED TARGET MET: one row on the standard output kept by md_start (a `|` in
# a cell is escaped, as a table needs).
md_row() {
	printf '| %s | %s | %s | %s | `%s` | %s | %s to %s |\n' "$(md_cell "$1")" "$(md_cell "$2")" "$(md_cell "$3")" \
		"$(md_cell "$4")" "$(md_cell "$md_command")" "$md_date" "$md_load_start" "$(cut -d' ' -f1 /proc/loadavg)" >&3
}

md_cell() { printf '%s' "$1" | sed 's/|/\\|/g'; }

# md_num X [DECIMALS]: X for a table, thousands separated by commas; with DECIMALS decimals, else
# none from 10,000 on, one from 10 on and three below 10. X itself when it is not a number.
md_num() {
	awk -v x="$1" -v d="${2:-}" 'BEGIN {
		if (x !~ /^[0-9.eE+-]+$/) { printf "%s", x; exit }
		if (d == "") d = (x >= 10000) ? 0 : (x >= 10) ? 1 : 3
		s = sprintf("%.*f", d, x)
		i = index(s, "."); whole = i ? substr(s, 1, i - 1) : s; frac = i ? substr(s, i) : ""
		while (length(whole) > 3) { frac = "," substr(whole, length(whole) - 2) frac; whole = substr(whole, 1, length(whole) - 3) }
		printf "%s%s", whole, frac
	}'
}
