package lsp

import (
	"bytes"
	"context"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/internal/gengame"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestDiagnosticsMemo edits files of many diagnostics at random (characters typed and deleted,
// lines added and joined, whole forms removed) and checks that each version's diagnostics, and
// the JSON of their publication, are through the document's memo what they are without it, and
// that the memo takes most of them from the version before after an edit within a line.
func TestDiagnosticsMemo(t *testing.T) {
	inputs := map[string]string{"unknown-relations": gengame.UnknownRelations(48 << 10)}
	if src, err := gengame.Corpus(corpusDir, 100<<10); err != nil {
		t.Logf("SKIPPED the corpus-made file: %v (the shared corpus is not beside the repository)", err)
	} else {
		inputs["corpus"] = src
	}
	for name, src := range inputs {
		t.Run(name, func(t *testing.T) {
			for _, enc := range []syntax.Encoding{syntax.UTF16, syntax.UTF8} {
				memoEdits(t, src, enc, rand.New(rand.NewSource(int64(len(src)))))
			}
		})
	}
}

func memoEdits(t *testing.T, src string, enc syntax.Encoding, rng *rand.Rand) {
	uri := protocol.DocumentURI("file:///memo.kif")
	snap := newSnapshot(uri, "gdl", 1, src, enc)
	memo := &diagMemo{}
	settings := defaultSettings()
	off := settings
	off.Severity = map[string]string{"fluent-not-in-base": "off", "unknown-relation": "hint"}
	if _, err := diagnosticsNotification(protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: mustDiagnostics(t, snap, settings, memo)}, memo); err != nil {
		t.Fatal(err)
	}
	rounds := 60
	if testing.Short() {
		rounds = 20
	}
	for v := int32(2); v < int32(rounds); v++ {
		text := snap.Text()
		at := rng.Intn(len(text))
		var r protocol.Range
		var ins string
		switch k := rng.Intn(6); {
		case k < 3: // a character typed or deleted within a line
			ins = "x"
			if k == 0 && text[at] != '\n' && text[at] != '\r' {
				r, ins = snap.m.rng(at, at+1), ""
			} else {
				r = snap.m.rng(at, at)
			}
		case k == 3: // a line added
			r, ins = snap.m.rng(at, at), "\n"
		case k == 4: // a form removed (from a parenthesis to the next closing one)
			start := strings.LastIndexByte(text[:at], '(')
			end := strings.IndexByte(text[at:], ')')
			if start < 0 || end < 0 {
				continue
			}
			r = snap.m.rng(start, at+end+1)
		default: // a typo in a name: a letter changed
			r, ins = snap.m.rng(at, at), "q"
		}
		snap = snap.edit(v, []contentChange{{Range: &r, Text: ins}})
		s := settings
		if v%7 == 0 {
			s = off
		}
		hits := memo.hits
		withMemo := mustDiagnostics(t, snap, s, memo)
		fresh := mustDiagnostics(t, snap, s, nil)
		if !reflect.DeepEqual(withMemo, fresh) {
			t.Fatalf("version %d: the memo's diagnostics differ from fresh ones", v)
		}
		p := protocol.PublishDiagnosticsParams{URI: uri, Version: uint32(v), Diagnostics: withMemo}
		got, err1 := diagnosticsNotification(p, memo)
		p.Diagnostics = fresh
		want, err2 := diagnosticsNotification(p, nil)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("version %d: the memo's JSON differs from a fresh encoding\n got %.300s\nwant %.300s", v, got, want)
		}
		if len(fresh) >= memoMin && ins == "x" && s.Severity == nil && memo.hits-hits < len(fresh)*3/2 {
			t.Errorf("version %d: an edit within a line took %d of %d diagnostics and their JSON from the memo", v, memo.hits-hits, 2*len(fresh))
		}
	}
}

func mustDiagnostics(t *testing.T, snap *Snapshot, s Settings, memo *diagMemo) []protocol.Diagnostic {
	t.Helper()
	ds, err := diagnostics(context.Background(), snap, s, memo, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}
