package prolog

import "testing"

// TestAtomSafeInjective: names that the old encoding merged (a '-' written as _x2d_ collided
// with a name spelling _x2d_ itself) and others that differ only by escapes stay distinct, and
// each encodes to lower-case letters, digits and '_' only.
func TestAtomSafeInjective(t *testing.T) {
	names := []string{
		"a-b", "a_x2d_b", "a__x2d__b", "a_b", "a__b", "ab", "a_", "_a", "__", "_", "x2d", "-", "_x2d_",
		"a.b", "a_x2e_b", "succ", "r_succ", "true", "é", "_xe9_", "a+", "a_x2b_", "1", "_x31_",
	}
	seen := map[string]string{}
	for _, n := range names {
		enc := atomSafe(n)
		if prev, dup := seen[enc]; dup {
			t.Errorf("%q and %q both encode to %q", prev, n, enc)
		}
		seen[enc] = n
		for _, r := range enc {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
				t.Errorf("%q encodes to %q, which has %q", n, enc, r)
			}
		}
	}
	for _, c := range []struct{ name, want string }{
		{"a-b", "a_x2d_b"}, {"a_x2d_b", "a__x2d__b"}, {"succ", "succ"}, {"my_rel", "my__rel"},
	} {
		if got := atomSafe(c.name); got != c.want {
			t.Errorf("atomSafe(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
