package game

import (
	"slices"
	"strconv"
	"strings"
)

// PlayReport is the summary of random playouts as the tools give it: `gdl play --format json`
// writes it (with the figures only the command has, such as CPU time and the seed), and the
// editor's gdl.playouts returns it, so that the same playouts read the same everywhere. The
// JSON member names are part of the CLI's documented output.
type PlayReport struct {
	Engine     Engine                  `json:"engine"`
	EngineWhy  string                  `json:"engine_reason,omitempty"`
	TimeUp     bool                    `json:"time_up"`
	Playouts   int                     `json:"playouts"`
	Seconds    float64                 `json:"seconds"` // wall time of the playouts
	MeanLength float64                 `json:"mean_length"`
	MinLength  int                     `json:"min_length"`
	MaxLength  int                     `json:"max_length"`
	Terminal   int                     `json:"terminal"`
	Roles      []string                `json:"roles"`
	Goals      map[string][]ValueCount `json:"goals"` // per role, by goal value (numerically)
	Lengths    []LengthCount           `json:"lengths"`
	First      *FirstRole              `json:"first_player,omitempty"`
	Violations []ReportedViolation     `json:"violations"`
	// DepthLimit is the playouts that reached the depth limit without a terminal state: a
	// possible non-termination (gdl verify decides), not a violation.
	DepthLimit *DepthLimitReport `json:"depth_limit,omitempty"`
}

// ValueCount is how many terminal playouts gave a role a goal value.
type ValueCount struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// LengthCount is how many playouts were that many joint moves long.
type LengthCount struct {
	Length int `json:"length"`
	Count  int `json:"count"`
}

// FirstRole is how the first role fared in the terminal playouts (PlayStats.First).
type FirstRole struct {
	Role   string `json:"role"`
	Wins   int    `json:"wins"`
	Draws  int    `json:"draws"`
	Losses int    `json:"losses"`
}

// ReportedViolation is one kind of violation with its count and the shortest joint moves that
// reach it, each written as a KIF list (usable as gdl query --moves).
type ReportedViolation struct {
	Kind   string   `json:"kind"`
	Role   string   `json:"role,omitempty"`
	Detail string   `json:"detail"`
	Count  int      `json:"count"`
	Moves  []string `json:"moves"`
	// MovesOut is the line of gdl play's --moves-out file that holds the moves (0: none).
	MovesOut int `json:"moves_out_line,omitempty"`
}

// DepthLimitReport is the playouts that reached the depth limit, with the first one's moves.
type DepthLimitReport struct {
	MaxDepth int      `json:"max_depth"`
	Playouts int      `json:"playouts"`
	Moves    []string `json:"moves"`
	MovesOut int      `json:"moves_out_line,omitempty"`
}

// EmptyReport is the report of no playouts: every list empty ([] and {} in JSON, not null).
func EmptyReport() PlayReport {
	return PlayReport{Roles: []string{}, Goals: map[string][]ValueCount{}, Lengths: []LengthCount{}, Violations: []ReportedViolation{}}
}

// Report summarises playouts that g played with the depth limit maxDepth.
func (g *Game) Report(st *PlayStats, maxDepth int) PlayReport {
	out := EmptyReport()
	out.Engine, out.EngineWhy, out.TimeUp = st.Engine, g.Why(), st.TimeUp
	out.Playouts, out.Seconds, out.Terminal = st.Playouts, st.Elapsed.Seconds(), st.Terminal
	out.MeanLength, out.MinLength, out.MaxLength = st.MeanLength, st.MinLength, st.MaxLength
	if st.Roles != nil {
		out.Roles = st.Roles
	}
	for i, r := range st.Roles {
		vs := []ValueCount{}
		if i < len(st.Goals) {
			for v, n := range st.Goals[i] {
				vs = append(vs, ValueCount{v, n})
			}
		}
		slices.SortFunc(vs, func(a, b ValueCount) int { return CompareValues(a.Value, b.Value) })
		out.Goals[r] = vs
	}
	for n, c := range st.Lengths {
		out.Lengths = append(out.Lengths, LengthCount{n, c})
	}
	slices.SortFunc(out.Lengths, func(a, b LengthCount) int { return a.Length - b.Length })
	if f := st.First; f.Wins+f.Draws+f.Losses > 0 && len(st.Roles) > 0 {
		out.First = &FirstRole{Role: st.Roles[0], Wins: f.Wins, Draws: f.Draws, Losses: f.Losses}
	}
	for _, v := range st.Violations {
		moves := make([]string, len(v.Moves))
		for i, j := range v.Moves {
			moves[i] = g.FormatJoint(j)
		}
		if v.Kind == ViolationDepth {
			out.DepthLimit = &DepthLimitReport{MaxDepth: maxDepth, Playouts: v.Count, Moves: moves}
			continue
		}
		out.Violations = append(out.Violations, ReportedViolation{Kind: v.Kind, Role: v.Role, Detail: v.Detail, Count: v.Count, Moves: moves})
	}
	return out
}

// CompareValues orders goal values numerically when both are integers, else as text.
func CompareValues(a, b string) int {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return x - y
	}
	return strings.Compare(a, b)
}
