package ggp

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
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

// TestPlayerHTTP: what is not a message gets an HTTP error, and the player goes on; GET
// /(INFO) is INFO, as for ggp-base's players; no CORS header unless asked for.
func TestPlayerHTTP(t *testing.T) {
	srv := httptest.NewServer(NewPlayer(PlayerOptions{Log: testLogger(t, "player")}))
	defer srv.Close()
	get := func(path string) (int, string, http.Header) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body), resp.Header
	}
	if status, _, h := get("/"); status != http.StatusMethodNotAllowed || h.Get("Allow") != "POST, GET, OPTIONS" {
		t.Errorf("GET /: %d, Allow %q", status, h.Get("Allow"))
	}
	for _, path := range []string{"/(INFO)", "/%28INFO%29", "/(info)"} {
		if status, body, _ := get(path); status != http.StatusOK || body != "available" {
			t.Errorf("GET %s: %d %q", path, status, body)
		}
	}
	if status, body, _ := get("/(ABORT%20m1)"); status != http.StatusMethodNotAllowed || !strings.Contains(body, "only (INFO)") {
		t.Errorf("GET of another message: %d %q", status, body)
	}
	req, _ := http.NewRequest(http.MethodOptions, srv.URL, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("OPTIONS: %d, %v", resp.StatusCode, resp.Header)
	}
	if _, _, h := get("/(INFO)"); h.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("a CORS header without --allow-origin: %v", h)
	}
	status, body := post(t, srv.URL, "(INFO "+strings.Repeat("x", MaxSmallMessage)+")")
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "other than START or PREVIEW is at most") {
		t.Errorf("an INFO over the limit: %d %q", status, body)
	}
	status, body = post(t, srv.URL, "(START m1 a ("+strings.Repeat("x ", MaxMessage/2)+") 10 10)")
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "a message is at most") {
		t.Errorf("a START over the limit: %d %q", status, body)
	}
	if status, body := post(t, srv.URL, "(INFO)"); status != http.StatusOK || body != "available" {
		t.Errorf("INFO after the bad requests: %d %q", status, body)
	}

	// A web page's post (a browser sends its Origin) is refused.
	req, _ = http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("(INFO)"))
	req.Header.Set("Origin", "https://example.com")
	req.Header.Set("Content-Type", "text/plain")
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a post from a web page: %d", resp.StatusCode)
	}

	open := httptest.NewServer(NewPlayer(PlayerOptions{AllowOrigin: "*", Log: testLogger(t, "player")}))
	defer open.Close()
	req, _ = http.NewRequest(http.MethodOptions, open.URL, nil)
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("OPTIONS with AllowOrigin *: %v", resp.Header)
	}
	req, _ = http.NewRequest(http.MethodPost, open.URL, strings.NewReader("(INFO)"))
	req.Header.Set("Origin", "https://example.com")
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(answer) != "available" {
		t.Errorf("a post from a web page with AllowOrigin *: %d %q", resp.StatusCode, answer)
	}
}

// slowPost starts a POST whose body is head and then nothing until the returned writer is
// closed; the answer comes on the channel.
func slowPost(t *testing.T, url, head string) (*io.PipeWriter, <-chan [2]string) {
	t.Helper()
	pr, pw := io.Pipe()
	out := make(chan [2]string, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, url, pr)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			out <- [2]string{"error", err.Error()}
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		out <- [2]string{strconv.Itoa(resp.StatusCode), string(body)}
	}()
	go pw.Write([]byte(head))
	return pw, out
}

// TestPlayerRequestBounds: a START while a match is on is answered busy before its body is
// read, and requests beyond MaxRequests at once are refused at once, so concurrent large
// bodies cannot exhaust the player's memory.
func TestPlayerRequestBounds(t *testing.T) {
	p := NewPlayer(PlayerOptions{Seed: 1, Log: testLogger(t, "player")})
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	var pipes []*io.PipeWriter
	t.Cleanup(func() { // before srv.Close, which waits for the requests to end
		for _, pw := range pipes {
			pw.CloseWithError(io.ErrUnexpectedEOF)
		}
	})
	if status, body := post(t, srv.URL, "(START m1 left ("+readGame(t, "pennies.kif")+") 10 10)"); status != http.StatusOK || body != "ready" {
		t.Fatalf("START: %d %q", status, body)
	}
	// A START whose body never ends: the answer comes all the same.
	pw, answer := slowPost(t, srv.URL, "(START m2 left ((role left) "+strings.Repeat("(filler) ", 100))
	pipes = append(pipes, pw)
	select {
	case a := <-answer:
		if a != [2]string{"200", "busy"} {
			t.Errorf("a START while busy: %v", a)
		}
	case <-time.After(20 * time.Second):
		t.Error("a START while busy is not answered before its body ends")
	}
	pw.Close()

	// MaxRequests requests whose bodies never end, then one more.
	for range MaxRequests {
		pw, _ := slowPost(t, srv.URL, "(PLAY m1 ")
		pipes = append(pipes, pw)
	}
	deadline := time.Now().Add(60 * time.Second)
	for len(p.slots) < MaxRequests { // the slow requests may not all have arrived yet
		if time.Now().After(deadline) {
			t.Fatalf("%d of the %d slow requests are being answered", len(p.slots), MaxRequests)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if status, body := post(t, srv.URL, "(INFO)"); status != http.StatusServiceUnavailable || !strings.Contains(body, "at most 8 requests at once") {
		t.Fatalf("request %d of %d at once: %d %q", MaxRequests+1, MaxRequests+1, status, body)
	}
	for _, pw := range pipes {
		pw.CloseWithError(io.ErrUnexpectedEOF)
	}
	deadline = time.Now().Add(60 * time.Second)
	for {
		if status, body := post(t, srv.URL, "(INFO)"); status == http.StatusOK && body == "busy" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the player does not answer once the slow requests are gone")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPlayerIdle: a match no message comes for within the idle time is dropped, and the player
// is available again.
func TestPlayerIdle(t *testing.T) {
	var logText strings.Builder
	var mu sync.Mutex
	logger := log.New(writerFunc(func(b []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logText.Write(b)
	}), "", 0)
	p := NewPlayer(PlayerOptions{Seed: 1, Idle: 300 * time.Millisecond, Log: logger})
	game := readGame(t, "pennies.kif")
	if r := p.Handle(context.Background(), "(START m1 left ("+game+") 10 10)"); r.Body != "ready" {
		t.Fatalf("START: %+v", r)
	}
	if r := p.Handle(context.Background(), "(PLAY m1 nil)"); r.Status != http.StatusOK {
		t.Fatalf("PLAY: %+v", r)
	}
	if r := p.Handle(context.Background(), "(INFO)"); r.Body != "busy" {
		t.Fatalf("INFO during the match: %+v", r)
	}
	time.Sleep(time.Second)
	mu.Lock()
	dropped := strings.Contains(logText.String(), "match m1 dropped: no message about it for")
	mu.Unlock()
	if !dropped {
		t.Errorf("the timer did not drop the idle match:\n%s", logText.String())
	}
	if r := p.Handle(context.Background(), "(INFO)"); r.Body != "available" {
		t.Errorf("INFO after the idle time: %+v", r)
	}
	if r := p.Handle(context.Background(), "(PLAY m1 ((show heads) (show heads)))"); r.Body != "busy" {
		t.Errorf("PLAY of the dropped match: %+v", r)
	}
	if r := p.Handle(context.Background(), "(START m2 right ("+game+") 10 10)"); r.Body != "ready" {
		t.Errorf("START after the idle time: %+v", r)
	}
	// The default idle time is the start clock plus three play clocks.
	if d := NewPlayer(PlayerOptions{}).idleTime(&Message{StartClock: 10 * time.Second, PlayClock: 5 * time.Second}); d != 25*time.Second {
		t.Errorf("default idle time %v", d)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// TestPlayerLog: the log holds each message's text, bounded, so that a match can be followed
// from it.
func TestPlayerLog(t *testing.T) {
	var logText strings.Builder
	p := NewPlayer(PlayerOptions{Seed: 1, Log: log.New(&logText, "", 0)})
	game := readGame(t, "pennies.kif")
	p.Handle(context.Background(), "(START m1 left ("+game+") 10 10)")
	p.Handle(context.Background(), "(PLAY m1 nil)")
	p.Handle(context.Background(), "(PLAY m1 ((show heads)   (show tails)))")
	p.Handle(context.Background(), "(START m2 left ((role left) "+strings.Repeat("(filler xxxxxxxx) ", 1000)+") 10 10)")
	text := logText.String()
	for _, want := range []string{"received (START m1 left (", "(role left)", "received (PLAY m1 ((show heads) (show tails)))", "bytes in all)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the log lacks %q:\n%s", want, text)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if len(line) > maxLogged+200 {
			t.Errorf("a log line of %d bytes", len(line))
		}
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
