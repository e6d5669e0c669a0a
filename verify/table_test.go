package verify

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/game"
)

// The table numbers keys in the order they are added and finds them again, across its growth,
// with keys of one length (no offsets kept) and then of others (offsets made), looked up one by
// one or after a batch's prefetch.
func TestTable(t *testing.T) {
	t.Parallel()
	tb := newTable()
	key := func(i int) []byte {
		b := []byte{'c'}
		b = binary.LittleEndian.AppendUint64(b, uint64(i)*0x9E3779B97F4A7C15)
		return binary.LittleEndian.AppendUint64(b, uint64(i))
	}
	const n = 5000
	for i := range n {
		k := key(i)
		if id, found := tb.lookup(k, tb.hash(k), true); found || id != int32(i) {
			t.Fatalf("key %d added as %d (found %v)", i, id, found)
		}
	}
	if tb.off != nil {
		t.Fatal("offsets kept for keys of one length")
	}
	var buf []byte
	for i := n - 1; i >= 0; i -= 3 {
		buf = append(buf, key(i)...)
	}
	hs, _ := tb.prefetch(buf, len(key(0)), nil)
	for j, i := 0, n-1; i >= 0; j, i = j+1, i-3 {
		if id, found := tb.lookup(key(i), hs[j], false); !found || id != int32(i) {
			t.Fatalf("key %d found as %d (found %v)", i, id, found)
		}
	}
	if id, found := tb.lookup(key(n), tb.hash(key(n)), false); found || id != -1 {
		t.Fatalf("a key not added found as %d", id)
	}
	// Keys of other lengths (states the interpreter made) after them.
	for i := range 300 {
		k := []byte(fmt.Sprintf("i%0*d", 1+i%40, i))
		if id, found := tb.lookup(k, tb.hash(k), true); found || id != int32(n+i) {
			t.Fatalf("key %q added as %d (found %v)", k, id, found)
		}
	}
	for i := range n + 300 {
		k := key(i)
		if i >= n {
			k = []byte(fmt.Sprintf("i%0*d", 1+(i-n)%40, i-n))
		}
		if got := tb.key(int32(i)); string(got) != string(k) {
			t.Fatalf("key %d is %q, not %q", i, got, k)
		}
		if id, found := tb.lookup(k, tb.hash(k), true); !found || id != int32(i) {
			t.Fatalf("key %d found as %d (found %v)", i, id, found)
		}
	}
	if tb.len() != n+300 {
		t.Fatalf("%d keys, want %d", tb.len(), n+300)
	}
}

// A key in the table that StateOfKey rejects cannot come from a search (its keys are the game's
// own); if one did, the explorer reports it as an error that ends the search, not a panic.
func TestRejectedKeyIsAnError(t *testing.T) {
	t.Parallel()
	g := load(t, "../testdata/verify/clean.kif", game.Compiled)
	x := &explorer{g: g, states: newTable()}
	x.states.append([]byte("x-not-a-key"))
	x.nodes = append(x.nodes, node{parent: -1, via: -1})
	v := &visit{id: 0}
	if _, err := x.state(v); err == nil || !strings.Contains(err.Error(), "the key of state 0") {
		t.Fatalf("state: %v, want the error of a rejected key", err)
	}
	c := &baseCoverage{g: g, defined: true}
	c.visit(x, v)
	if x.fatal == nil {
		t.Fatal("the coverage check did not record the failure")
	}
	if err := x.search(bg, bg, Options{}); err == nil || err != x.fatal {
		t.Fatalf("search: %v, want %v", err, x.fatal)
	}
}
