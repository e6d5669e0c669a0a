package gengame

import (
	"strings"
	"testing"
)

// TestEditAtSameKindAtEverySize: the benchmarks' edit of a family falls on the same kind of form
// at each size they run (192 KB, 768 KB, 3 MB). Many-roles' middle parenthesis fell on a role
// fact at 768 KB and on a legal rule at 3 MB.
func TestEditAtSameKindAtEverySize(t *testing.T) {
	for _, f := range Families {
		if f.Edit == "" {
			continue
		}
		for _, kb := range []int{192, 768, 3072} {
			src := f.Make(kb << 10)
			at := f.EditAt(src)
			if at < len(src)/2 || !strings.HasPrefix(src[at-1:], f.Edit) {
				t.Errorf("%s at %d KB: the edit at %d is not past the middle in a form beginning %q: %.40q", f.Name, kb, at, f.Edit, src[at-1:])
			}
		}
	}
}
