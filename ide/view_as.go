package ide

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/board"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/player"
)

// The game view's "view as a role" in a GDL-II game: the state as that role knows it, from its
// own moves and percepts (player.BeliefAfter, what the built-in players play from). A square
// whose content is the same in every state the role may be in is drawn; the others are unknown.

// viewAsTime bounds the work of ViewAs: following what the role knows along the history.
const viewAsTime = 2 * time.Second

// RoleView is the state as one role of a GDL-II game knows it.
type RoleView struct {
	Role string
	// View draws the fluents true in every state the role may be in; a square whose content
	// differs between those states shows "?" and is listed in Unknown.
	View    *board.View
	Unknown []board.Square
	// UnknownOthers are the relations off the boards whose fluents differ between the states.
	UnknownOthers []string
	Known         []string // the fluents true in every state it may be in, sorted
	States        int      // the states it may be in (a sample of them when Complete is false)
	// Complete says that every state agreeing with what the role was told was found (no
	// sample, no time limit reached): only then is a square shown surely known.
	Complete bool
	Error    string // why there is no view
}

// ViewAs returns the state of st (its history) as role knows it.
func (s *Session) ViewAs(ctx context.Context, st *GameState, role string) *RoleView {
	r := slices.Index(st.Roles, role)
	if r < 0 {
		return &RoleView{Role: role, Error: fmt.Sprintf("the game has no role %s", role)}
	}
	c := s.game()
	fg, err := c.fast(ctx)
	if err != nil {
		return &RoleView{Role: role, Error: c.explain(s.snap, err)}
	}
	joints, err := jointsOn(fg, st.History)
	if err != nil {
		return &RoleView{Role: role, Error: err.Error()}
	}
	return RoleViewOf(ctx, fg, c.layoutFor(ctx, s.boards), r, joints)
}

// RoleViewOf returns the state after the joint moves of history (from the initial state) as
// role knows it, drawn with lay; it follows what the role knows for at most viewAsTime. The
// game view and `gdl render --as` draw it.
func RoleViewOf(ctx context.Context, g *game.Game, lay *board.Layout, role int, history [][]eval.Term) *RoleView {
	rv := &RoleView{Role: g.RoleNames()[role]}
	bctx, cancel := context.WithTimeout(ctx, viewAsTime)
	defer cancel()
	b, err := player.BeliefAfter(bctx, g, role, 1, history)
	if err != nil {
		rv.Error = err.Error()
		return rv
	}
	states := b.States()
	rv.States, rv.Complete = len(states), b.Complete() && bctx.Err() == nil
	count := map[string]int{}
	views := make([]*board.View, len(states))
	for i, bs := range states {
		fluents := g.Strings(bs.Fluents())
		for _, f := range fluents {
			count[f]++
		}
		views[i] = lay.Draw(fluents)
	}
	for f, n := range count {
		if n == len(states) {
			rv.Known = append(rv.Known, f)
		}
	}
	slices.Sort(rv.Known)
	rv.View = lay.Draw(rv.Known)
	for bi, bd := range rv.View.Boards {
		for ri, row := range bd.Cells {
			for ci, cell := range row {
				first := strings.Join(views[0].Boards[bi].Cells[ri][ci].Fluents, " ")
				same := true
				for _, v := range views[1:] {
					if strings.Join(v.Boards[bi].Cells[ri][ci].Fluents, " ") != first {
						same = false
						break
					}
				}
				if !same {
					row[ci] = board.Cell{Row: cell.Row, Column: cell.Column, Content: []string{}, Fluents: []string{}, Text: "?"}
					rv.Unknown = append(rv.Unknown, board.Square{Board: bi, Row: ri, Column: ci})
				}
			}
		}
	}
	// The relations off the boards whose fluents are not the same in every state.
	others := func(v *board.View) map[string]string {
		out := map[string]string{}
		for _, o := range v.Others {
			out[o.Relation] = strings.Join(o.Values, "\x00")
		}
		return out
	}
	first := others(views[0])
	differs := map[string]bool{}
	for _, v := range views[1:] {
		o := others(v)
		for rel, vals := range o {
			if first[rel] != vals {
				differs[rel] = true
			}
		}
		for rel := range first {
			if _, ok := o[rel]; !ok {
				differs[rel] = true
			}
		}
	}
	for _, v := range views {
		for _, o := range v.Others {
			if differs[o.Relation] && !slices.Contains(rv.UnknownOthers, o.Relation) {
				rv.UnknownOthers = append(rv.UnknownOthers, o.Relation)
			}
		}
	}
	return rv
}
