package playground

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gdl-lsp/gdl/ide"
)

// "verify": the game's properties by search (ide.Verify: termination, playability, goals,
// winnability, input and base coverage), each finding placed on the rules involved with its
// witness, the joint moves from the initial state to where it shows, which "replay" plays.
// Progress goes to the bridge's notify as "progress" about four times a second.

func init() { methods["verify"] = verifyCommand }

type verifyParams struct {
	MaxStates int `json:"maxStates"` // 0: 100,000
	TimeoutMs int `json:"timeoutMs"` // 0: 30 s
}

// finding is a verification finding, or a state that could not be evaluated.
type finding struct {
	Range
	Severity string     `json:"severity"`
	Code     string     `json:"code"`
	Message  string     `json:"message"`
	Related  []Related  `json:"related,omitempty"`
	Witness  [][]string `json:"witness"`
}

type verifyResult struct {
	Version  int32     `json:"version"`
	Summary  string    `json:"summary"`
	Complete bool      `json:"complete"`
	States   int       `json:"states"`
	Findings []finding `json:"findings"`
}

// verifyProgress is a verification's progress.
type verifyProgress struct {
	Explored  int     `json:"explored"`
	Depth     int     `json:"depth"`
	ElapsedMs float64 `json:"elapsedMs"`
}

func verifyCommand(ctx context.Context, b *Bridge, snap *ide.Snapshot, params json.RawMessage) (any, error) {
	p, err := decode[verifyParams]("verify", params)
	if err != nil {
		return nil, err
	}
	opts := ide.VerifyOptions{MaxStates: p.MaxStates, Timeout: time.Duration(p.TimeoutMs) * time.Millisecond, Cache: b.games.Cache(),
		Progress: func(explored, depth int, elapsed time.Duration) {
			b.notify("progress", verifyProgress{explored, depth, float64(elapsed.Microseconds()) / 1000})
		}}
	if opts.MaxStates <= 0 {
		opts.MaxStates = 100_000
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	rep, err := ide.Verify(ctx, snap, opts)
	if err != nil {
		return nil, err
	}
	out := verifyResult{Version: rep.Version, Summary: rep.Summary, Complete: rep.Result.Complete, States: rep.Result.States, Findings: []finding{}}
	for _, d := range rep.Diagnostics {
		f := finding{Range: rangeOf(snap, d.Span), Severity: d.Severity.String(), Code: d.Code, Message: d.Message, Witness: nonNil(d.Witness)}
		for _, r := range d.Related {
			f.Related = append(f.Related, Related{rangeOf(snap, r.Span), r.Message})
		}
		out.Findings = append(out.Findings, f)
	}
	return out, nil
}
