package analysis

import "testing"

// TestKeywordRel checks that KeywordRel's switch gives every keyword the arity of
// RelationKeywords, and any other name arity 0 as the table's look-up would.
func TestKeywordRel(t *testing.T) {
	for key, arity := range RelationKeywords {
		if got := KeywordRel(key); got != (Rel{key, arity}) {
			t.Errorf("KeywordRel(%q) = %v, want %s/%d", key, got, key, arity)
		}
	}
	if got := KeywordRel("cell"); got != (Rel{"cell", 0}) {
		t.Errorf("KeywordRel(cell) = %v, want cell/0", got)
	}
}
