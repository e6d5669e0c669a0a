package verify

import (
	"context"

	"github.com/gdl-lsp/gdl/game"
)

// verifyChecks lists the properties Verify checks, one file each, in report order.
func verifyChecks(ctx context.Context, g *game.Game) ([]check, error) {
	in, err := newInputCoverage(ctx, g)
	if err != nil {
		return nil, err
	}
	base, err := newBaseCoverage(ctx, g)
	if err != nil {
		return nil, err
	}
	return []check{newTermination(), newPlayability(g), newGoal(g), newWinnability(g), in, base}, nil
}

// group gathers the instances of one violation (same property, kind and role): the first one
// found, at the smallest depth, is its witness.
type group struct {
	kind    string
	role    int // -1: not about one role
	id      int32
	subject string
	detail  string
	count   int
}

// groups keeps groups in order of discovery.
type groups struct {
	byKey map[string]*group
	order []*group
}

// add counts an instance; it returns the group and whether it is new.
func (gs *groups) add(key, kind string, role int, id int32) (*group, bool) {
	if gs.byKey == nil {
		gs.byKey = map[string]*group{}
	}
	if gr, ok := gs.byKey[key]; ok {
		gr.count++
		return gr, false
	}
	gr := &group{kind: kind, role: role, id: id, count: 1}
	gs.byKey[key] = gr
	gs.order = append(gs.order, gr)
	return gr, true
}

// finding makes the finding of a group, its witness the path to the group's state.
func (x *explorer) finding(ctx context.Context, p Property, gr *group, msg string, rels ...string) (Finding, error) {
	moves, err := x.witness(ctx, gr.id, nil)
	if err != nil {
		return Finding{}, err
	}
	f := Finding{Property: p, Kind: gr.kind, Moves: moves, Joints: kifJoints(x.g, moves), Infix: infixJoints(x.g, moves), Subject: gr.subject,
		Count: gr.count, Message: msg, Relations: rels}
	if gr.role >= 0 {
		f.Role = x.g.RoleNames()[gr.role]
	}
	return f, nil
}

// verdict is the status of a property that a violation anywhere in the reachable space fails.
func (x *explorer) verdict(found bool) Status {
	switch {
	case found:
		return Failed
	case x.complete():
		return OK
	}
	return Unknown
}
