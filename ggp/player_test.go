package ggp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/internal/markers"
)

// post sends a request to a player over HTTP and returns the status and the answer.
func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "text/acl")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxReply))
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(data)
}

var gameRef = regexp.MustCompile(`@([a-z0-9]+\.kif)`)

// TestConformance runs the scripts of testdata/conformance.txt against a real player over
// HTTP: each request posted as written, each answer compared with the one expected.
func TestConformance(t *testing.T) {
	data, err := os.ReadFile("testdata/conformance.txt")
	if err != nil {
		t.Fatal(err)
	}
	sections, order := markers.Sections(string(data))
	for _, name := range order {
		if name == "" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			p := NewPlayer(PlayerOptions{Seed: 1, Log: testLogger(t, "player")})
			srv := httptest.NewServer(p)
			defer srv.Close()
			var req []string
			for i, line := range strings.Split(sections[name], "\n") {
				switch {
				case strings.HasPrefix(line, "> "):
					req = append(req, line[2:])
				case strings.HasPrefix(line, "< "):
					text := gameRef.ReplaceAllStringFunc(strings.Join(req, "\n"), func(ref string) string {
						b, err := os.ReadFile(filepath.Join("testdata", ref[1:]))
						if err != nil {
							t.Fatal(err)
						}
						return string(b)
					})
					req = nil
					statusText, want, _ := strings.Cut(line[2:], " ")
					status, _ := strconv.Atoi(statusText)
					gotStatus, got := post(t, srv.URL, text)
					if gotStatus != status || !answerMatches(got, want) {
						t.Errorf("line %d: got %d %q, want %d %q", i+1, gotStatus, got, status, want)
					}
				case strings.TrimSpace(line) != "":
					t.Fatalf("line %d: neither a request (> ) nor an answer (< ): %q", i+1, line)
				}
			}
		})
	}
}

// answerMatches compares an answer with the expected one: exact, one of several separated by
// " | ", or a prefix ending in "*".
func answerMatches(got, want string) bool {
	for _, w := range strings.Split(want, " | ") {
		if p, ok := strings.CutSuffix(w, "*"); ok && strings.HasPrefix(got, p) || got == w {
			return true
		}
	}
	return false
}

// TestPlayerHTTP: what is not a message gets an HTTP error, and the player goes on.
func TestPlayerHTTP(t *testing.T) {
	srv := httptest.NewServer(NewPlayer(PlayerOptions{Log: testLogger(t, "player")}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST, OPTIONS" {
		t.Errorf("GET: %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	req, _ := http.NewRequest(http.MethodOptions, srv.URL, nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("OPTIONS: %d, %v", resp.StatusCode, resp.Header)
	}
	status, body := post(t, srv.URL, "(INFO "+strings.Repeat("x", MaxMessage)+")")
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "larger than") {
		t.Errorf("a message over the limit: %d %q", status, body)
	}
	if status, body := post(t, srv.URL, "(INFO)"); status != http.StatusOK || body != "available" {
		t.Errorf("INFO after the bad requests: %d %q", status, body)
	}
}

// TestPlayerMargin: an mcts player without a playout budget searches until the play clock less
// its margin, then answers one of its legal moves.
func TestPlayerMargin(t *testing.T) {
	p := NewPlayer(PlayerOptions{Strategy: MCTSStrategy, Margin: 500 * time.Millisecond, Log: testLogger(t, "player")})
	game := readGame(t, "tictactoe.kif")
	if r := p.Handle(context.Background(), "(START m1 xplayer ("+game+") 10 1)"); r.Body != "ready" {
		t.Fatalf("START: %+v", r)
	}
	start := time.Now()
	r := p.Handle(context.Background(), "(PLAY m1 nil)")
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Body, "(mark ") {
		t.Fatalf("PLAY: %+v", r)
	}
	t.Logf("answered %s after %v (play clock 1s, margin 0.5s)", r.Body, time.Since(start))
}
