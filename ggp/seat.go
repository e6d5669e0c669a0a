package ggp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/gdl-lsp/gdl/player"
	"github.com/gdl-lsp/gdl/syntax"
)

// MaxReply bounds a player's answer the manager reads: a move is a term of a few bytes, an
// INFO answer a short list.
const MaxReply = 64 << 10

// HTTPSeat is a player at an HTTP address, in a match of package player's runner: the
// runner's START, PLAY, STOP and ABORT go to it as GGP messages, and its answers are read
// back (a move as one term of the game).
type HTTPSeat struct {
	URL    string
	Client *http.Client // nil: a client of its own

	m *player.Setup // the match being played
}

func (s *HTTPSeat) Name() string { return s.URL }

// Start sends START with the game's rules (its KIF, as LoadMatch makes it); the answer is ready.
func (s *HTTPSeat) Start(ctx context.Context, m *player.Setup) (player.Reply, error) {
	s.m = m
	f := m.Game.Analysis().Model.File
	if f.Dialect() != syntax.Prefix {
		return player.Reply{}, errors.New("the game is not in KIF: a match with players at URLs plays a game of player.LoadMatch")
	}
	rules, err := Rules(f.Source())
	if err != nil {
		return player.Reply{}, err
	}
	roles := m.Game.RoleNames()
	return s.expect(ctx, &Message{Kind: Start, MatchID: m.MatchID, Role: roles[m.Role], Rules: rules, StartClock: m.StartClock, PlayClock: m.PlayClock}, "ready")
}

// Play sends PLAY and reads the move answered.
func (s *HTTPSeat) Play(ctx context.Context, t *player.Turn) (player.Reply, error) {
	msg := &Message{Kind: Play, MatchID: s.m.MatchID}
	s.fill(msg, t)
	rep, err := s.send(ctx, msg.String())
	if err != nil {
		return player.Reply{}, err
	}
	e, err := ReadExpr(rep.Text)
	if err != nil {
		return rep, &player.SeatError{Kind: player.Unreadable, Err: fmt.Errorf("%q is not a move: %v", player.Abbreviate(rep.Text, 80), err)}
	}
	text := e.String()
	if rep.Move, err = s.m.Game.ParseTerm(text); err != nil {
		return rep, &player.SeatError{Kind: player.Unreadable, Err: fmt.Errorf("%s is not a move: %v", player.Abbreviate(text, 80), err)}
	}
	return rep, nil
}

// Stop sends STOP; the answer is done.
func (s *HTTPSeat) Stop(ctx context.Context, t *player.Turn) (player.Reply, error) {
	msg := &Message{Kind: Stop, MatchID: s.m.MatchID}
	s.fill(msg, t)
	return s.expect(ctx, msg, "done")
}

// Abort sends ABORT; the answer is done.
func (s *HTTPSeat) Abort(ctx context.Context) (player.Reply, error) {
	return s.expect(ctx, &Message{Kind: Abort, MatchID: s.m.MatchID}, "done")
}

// fill completes a PLAY or STOP with the turn: the joint move played last (GDL), or the turn,
// the role's own move and its percepts (GDL-II).
func (s *HTTPSeat) fill(m *Message, t *player.Turn) {
	g := s.m.Game
	if player.GDLII(g) {
		m.II, m.Turn = true, t.Step
		if t.Step > 0 {
			m.LastMove = g.String(t.Move)
			m.Percepts = append([]string{}, t.Sees...)
		}
		return
	}
	for _, mv := range t.Joint {
		m.Joint = append(m.Joint, g.String(mv))
	}
}

// expect sends a message whose answer must be want (in any case).
func (s *HTTPSeat) expect(ctx context.Context, m *Message, want string) (player.Reply, error) {
	rep, err := s.send(ctx, m.String())
	if err == nil && !strings.EqualFold(strings.TrimSpace(rep.Text), want) {
		err = &player.SeatError{Kind: player.Refused, Err: fmt.Errorf("answered %q, not %s", player.Abbreviate(rep.Text, 80), want)}
	}
	return rep, err
}

// send posts a message and returns the answer of a status 200; any other status is refused.
func (s *HTTPSeat) send(ctx context.Context, msg string) (player.Reply, error) {
	rep, err := s.post(ctx, msg)
	if err != nil {
		if errors.Is(err, errTooLong) {
			return player.Reply{}, &player.SeatError{Kind: player.Unreadable, Err: err}
		}
		return player.Reply{}, err
	}
	if rep.Status != http.StatusOK {
		return player.Reply{}, &player.SeatError{Kind: player.Refused, Err: fmt.Errorf("HTTP status %d: %s", rep.Status, player.Abbreviate(rep.Body, 200))}
	}
	return player.Reply{Text: rep.Body}, nil
}

// post posts the message (Content-Type text/acl) and reads at most MaxReply bytes of the answer.
func (s *HTTPSeat) post(ctx context.Context, msg string) (Reply, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, strings.NewReader(msg))
	if err != nil {
		return Reply{}, err
	}
	req.Header.Set("Content-Type", "text/acl")
	c := s.Client
	if c == nil {
		c = defaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return Reply{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxReply+1))
	if err != nil {
		return Reply{}, fmt.Errorf("reading the answer: %w", err)
	}
	if len(body) > MaxReply {
		return Reply{}, errTooLong
	}
	return Reply{resp.StatusCode, string(body)}, nil
}

// defaultClient sends the manager's messages: no redirects (a player answers where it is), and
// no time limit of its own (each message has its clock).
var defaultClient = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// NewSeat reads a player as given on the command line or by the editor: random or mcts (a
// built-in player of package player, run in this process with opts), or the address of a player: an http or https
// URL, or host:port.
func NewSeat(spec string, opts player.SeatOptions) (player.Seat, error) {
	switch strings.ToLower(spec) {
	case player.RandomStrategy, player.MCTSStrategy:
		return player.NewSeat(spec, opts)
	}
	u := spec
	if !strings.Contains(u, "://") {
		u = "http://" + u
	}
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return nil, fmt.Errorf("%q is not a player: random, mcts, or a player's address (http://host:port/ or host:port)", spec)
	}
	if p.Scheme != "http" && p.Scheme != "https" {
		return nil, fmt.Errorf("%q: a player's address is http or https, not %s", spec, p.Scheme)
	}
	if p.Path == "" {
		p.Path = "/"
	}
	return &HTTPSeat{URL: p.String()}, nil
}

var errTooLong = fmt.Errorf("the answer is longer than %d bytes", MaxReply)
