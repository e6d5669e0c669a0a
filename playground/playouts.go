package playground

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gdl-lsp/gdl/ide"
)

// "playouts": random playouts from the initial state and their statistics (ide.Session.Playouts:
// the report of `gdl play --format json`): goal values per role, lengths, violations.

func init() { methods["playouts"] = playouts }

func playouts(ctx context.Context, b *Bridge, snap *ide.Snapshot, params json.RawMessage) (any, error) {
	p, err := decode[struct {
		Playouts int    `json:"playouts"` // 0: 1,000; at most 100,000
		TimeMs   int    `json:"timeMs"`   // 0: 10 s; at most a minute
		Seed     uint64 `json:"seed"`
	}]("playouts", params)
	if err != nil {
		return nil, err
	}
	limit := min(max(time.Duration(p.TimeMs)*time.Millisecond, 0), time.Minute)
	st := b.session(snap).Playouts(ctx, min(max(p.Playouts, 0), 100_000), p.Seed, limit)
	return struct {
		Report any    `json:"report"`
		Error  string `json:"error,omitempty"`
	}{st.Report, st.Error}, nil
}
