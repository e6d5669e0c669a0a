package syntax

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// countingContext counts the looks at its Err and reports itself cancelled from look cancelAt
// on (0: never).
type countingContext struct {
	context.Context
	looks, cancelAt int
}

func (c *countingContext) Err() error {
	c.looks++
	if c.cancelAt > 0 && c.looks >= c.cancelAt {
		return context.Canceled
	}
	return nil
}

// TestParseContext: ParseContext makes the tree ParseDialect makes, looking at its context every
// pollItems top-level items, in both notations; cancelled, it stops there and returns its error.
func TestParseContext(t *testing.T) {
	var prefix, infix strings.Builder
	const forms = 10 * pollItems
	for i := 0; i < forms; i++ {
		prefix.WriteString("(<= (r ?x) (q ?x)) ; c\n")
		infix.WriteString("r(X) :- q(X)\n")
	}
	for _, c := range []struct {
		src string
		d   Dialect
	}{{prefix.String(), Prefix}, {infix.String(), Infix}, {"(a) (b", Prefix}, {"", Prefix}} {
		ctx := &countingContext{Context: context.Background()}
		got, err := ParseContext(ctx, c.src, c.d)
		want, _ := ParseDialect(c.src, c.d)
		if err != nil || !reflect.DeepEqual(formSpans(got), formSpans(want)) || !reflect.DeepEqual(got.Errors(), want.Errors()) {
			t.Errorf("%.40q: ParseContext differs from ParseDialect (error %v)", c.src, err)
		}
		if items := len(want.items); ctx.looks != items/pollItems {
			t.Errorf("%.40q: %d looks at the context for %d items, want %d", c.src, ctx.looks, items, items/pollItems)
		}
		cancelled := &countingContext{Context: context.Background(), cancelAt: 3}
		f, err := ParseContext(cancelled, c.src, c.d)
		if len(want.items) > 3*pollItems && (f != nil || !errors.Is(err, context.Canceled) || cancelled.looks != 3) {
			t.Errorf("%.40q: cancelled at the third look: %v, %v after %d looks", c.src, f != nil, err, cancelled.looks)
		}
	}
}

func formSpans(f *File) []Span {
	var out []Span
	for _, fm := range f.Forms() {
		out = append(out, fm.Span())
	}
	return out
}
