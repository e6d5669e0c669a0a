package game

import (
	"container/list"
	"context"
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/gdl-lsp/gdl/analysis"
)

// A Cache keeps the games made by Game, by text and options: the language server asks again for
// the game of a text it has seen (an undo, another open document with the same text, a settings
// change and back), and grounding a big game costs up to its whole budget. Its owner passes it
// to those who share its games (ide.Games keeps one per server); its methods are safe for
// concurrent use.
type Cache struct {
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

// NewCache makes a cache that keeps the last n games made (n < 1: 1).
func NewCache(n int) *Cache {
	return &Cache{max: max(n, 1), byKey: map[string]*list.Element{}, order: list.New()}
}

// Game returns the game of an analysed description with these options, made once per text and
// options and shared by every caller: a Game is immutable and safe for concurrent use. A caller
// whose ctx ends while another one makes the game stops waiting. A nil Cache makes the game
// anew (New).
func (c *Cache) Game(ctx context.Context, res *analysis.Result, opts Options) (*Game, error) {
	if c == nil {
		return New(ctx, res, opts)
	}
	h := sha256.Sum256([]byte(res.Model.File.Source()))
	key := fmt.Sprintf("%x %q %+v %+v", h, opts.Engine, opts.Limits, opts.Ground)
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
