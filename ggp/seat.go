package ggp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// MaxReply bounds a player's answer the manager reads: a move is a term of a few bytes, an
// INFO answer a short list.
const MaxReply = 64 << 10

// Seat is how the manager reaches the player of a role.
type Seat interface {
	// Name is the player as the record shows it: its URL, or the built-in strategy.
	Name() string
	// Send delivers a message and returns the answer; the error is a failure to get one (the
	// connection refused or closed, ctx ended).
	Send(ctx context.Context, msg string) (Reply, error)
}

// HTTPSeat is a player at an HTTP address.
type HTTPSeat struct {
	URL    string
	Client *http.Client // nil: a client of its own
}

func (s *HTTPSeat) Name() string { return s.URL }

// Send posts the message (Content-Type text/acl) and reads at most MaxReply bytes of the answer.
func (s *HTTPSeat) Send(ctx context.Context, msg string) (Reply, error) {
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

// LocalSeat is a built-in player run in-process; it gets the same messages as a player over
// HTTP, without the network.
type LocalSeat struct {
	Label  string
	Player *Player
}

func (s *LocalSeat) Name() string { return s.Label }

// Send hands the message to the player; ctx ending stops waiting for the answer.
func (s *LocalSeat) Send(ctx context.Context, msg string) (Reply, error) {
	ch := make(chan Reply, 1)
	go func() { ch <- s.Player.Handle(ctx, msg) }()
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	}
}

// NewSeat reads a player as given on the command line or by the editor: random or mcts (a
// built-in player, run in-process with opts), or the address of a player: an http or https
// URL, or host:port.
func NewSeat(spec string, opts PlayerOptions) (Seat, error) {
	switch strings.ToLower(spec) {
	case string(RandomStrategy), string(MCTSStrategy):
		opts.Strategy = Strategy(strings.ToLower(spec))
		return &LocalSeat{Label: strings.ToLower(spec), Player: NewPlayer(opts)}, nil
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

// errorKind classifies a failure to get an answer.
func errorKind(err error) ErrorKind {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return Late
	case errors.Is(err, errTooLong):
		return Unreadable
	}
	return Unreachable
}
