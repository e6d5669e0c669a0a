package game

import (
	"container/list"
	"context"
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/gdl-lsp/gdl/analysis"
)

// The games made by Shared, by text and options: the language server asks again for the game of
// a text it has seen (an undo, another open document with the same text, a settings change and
// back), and grounding a big game costs up to its whole budget.
var shared = &gameCache{max: 8, byKey: map[string]*list.Element{}, order: list.New()}

type gameCache struct {
	mu    sync.Mutex
	max   int
	byKey map[string]*list.Element // key -> element of order, whose Value is *cacheEntry
	order *list.List               // most recently used first
}

type cacheEntry struct {
	key  string
	done chan struct{} // closed once g and err are set
	g    *Game
	err  error
}

// Shared returns the game of an analysed description with these options, made once per text
// and options (the last eight are kept) and shared by every caller: a Game is immutable and safe
// for concurrent use. A caller whose ctx ends while another one makes the game stops waiting.
func Shared(ctx context.Context, res *analysis.Result, opts Options) (*Game, error) {
	h := sha256.Sum256([]byte(res.Model.File.Source()))
	key := fmt.Sprintf("%x %q %+v %+v", h, opts.Engine, opts.Limits, opts.Ground)
	c := shared
	c.mu.Lock()
	if el, ok := c.byKey[key]; ok {
		c.order.MoveToFront(el)
		e := el.Value.(*cacheEntry)
		c.mu.Unlock()
		select {
		case <-e.done:
			return e.g, e.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	e := &cacheEntry{key: key, done: make(chan struct{})}
	c.byKey[key] = c.order.PushFront(e)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*cacheEntry).key)
	}
	c.mu.Unlock()
	e.g, e.err = New(ctx, res, opts)
	close(e.done)
	if ctx.Err() != nil {
		// Made under a context that ended: do not keep a half-made result for others.
		c.mu.Lock()
		if el, ok := c.byKey[key]; ok && el.Value.(*cacheEntry) == e {
			c.order.Remove(el)
			delete(c.byKey, key)
		}
		c.mu.Unlock()
	}
	return e.g, e.err
}
