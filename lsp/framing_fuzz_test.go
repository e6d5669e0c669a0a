package lsp

import (
	"bytes"
	"context"
	"io"
	"log"
	"strings"
	"testing"
	"time"
)

// FuzzFraming feeds arbitrary bytes to the real server's read loop (in process, over pipes),
// then keeps sending one valid request. Property: the server answers that request, or it exits;
// it never goes deaf. Each run is bounded by a context: not answering within it fails.
//
// The server's goroutines make its coverage vary from run to run, so the fuzzer keeps finding
// "new" inputs; a short minimization keeps it fuzzing (about 200 runs a second on 2 cores):
//
//	go test ./lsp -run '^$' -fuzz '^FuzzFraming$' -fuzztime 5m -fuzzminimizetime 1x
func FuzzFraming(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("Content-Length: 2\r\n\r\n{}}"))
	f.Add([]byte("Content-Length: 10\r\n\r\n{\"a\":1}"))
	f.Add([]byte("Content-Length: 2147483647\r\n\r\n"))
	f.Add([]byte("Content-Length: 60000\r\n\r\n"))
	f.Add([]byte("content-length: 5\ncontent-length: 6\n\n{}"))
	f.Add([]byte("X-Pad: " + strings.Repeat("a", 5000) + "\r\n"))
	f.Add([]byte("Content-Length"))
	f.Add([]byte(frame("{not json") + frame(`[1]`) + frame(`{"jsonrpc":"2.0","id":5,"method":7}`)))
	f.Add([]byte(frame(initBody) + frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`) +
		frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///f.kif","languageId":"gdl","version":1,"text":"(role r)"}}}`)))
	f.Add([]byte(frame(initBody) + frame(shutdownBody)))
	f.Add([]byte(frame(initBody) + frame(shutdownBody) + frame(exitBody)))
	f.Add([]byte(frame(exitBody)))

	f.Fuzz(fuzzFraming)
}

const syncBody = `{"jsonrpc":"2.0","id":"sync","method":"gdl/sync"}`

// syncBatch is a valid request (id "sync"), 32 times.
var syncBatch = []byte(strings.Repeat(frame(syncBody), 32))

func fuzzFraming(t *testing.T, garbage []byte) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := NewServer(io.Discard)
	s.maxMessage = 64 << 10 // so that a length the garbage announces is filled quickly
	served := make(chan int, 1)
	go func() {
		code := s.Serve(context.Background(), pipeRWC{inR, outW})
		inR.CloseWithError(io.ErrClosedPipe)
		outW.Close()
		served <- code
	}()
	answered := make(chan struct{})
	go func() { // read the server's output to its end, noting the answer to sync
		var out bytes.Buffer
		buf := make([]byte, 32<<10)
		seen := false
		for {
			n, err := outR.Read(buf)
			out.Write(buf[:n])
			if !seen && bytes.Contains(out.Bytes(), []byte(`"id":"sync"`)) {
				seen = true
				close(answered)
			}
			if !seen && out.Len() > 1<<10 {
				out.Next(out.Len() - 32) // keep a tail that may hold the start of the id
			}
			if err != nil {
				return
			}
		}
	}()
	stop := make(chan struct{})
	wrote := make(chan struct{})
	go func() { // the garbage, then valid requests until told to stop
		defer close(wrote)
		if _, err := inW.Write(garbage); err != nil {
			return
		}
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := inW.Write(syncBatch); err != nil {
				return
			}
		}
	}()
	exited := false
	select {
	case <-answered:
	case <-served:
		exited = true
	case <-ctx.Done():
		t.Fatalf("the server neither answered a valid request nor exited after %s", quote(garbage))
	}
	close(stop)
	inW.Close() // the end of the input ends the session
	<-wrote
	if !exited {
		select {
		case <-served:
		case <-ctx.Done():
			t.Fatalf("the server did not exit at the end of its input after %s", quote(garbage))
		}
	}
}

// FuzzFrameReader is FuzzFraming for the reader alone, without goroutines, so that the fuzzer
// runs it fast and sees the same coverage each time: after arbitrary bytes and then enough
// copies of a valid message, the reader returns that message; it never returns more than the
// maximum size.
func FuzzFrameReader(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}}"))
	f.Add([]byte("Content-Length: 4000\r\n\r\n"))
	f.Add([]byte("X: y\r\nContent-Length: 5\r\ncontent-length: 6\n\n{}"))
	f.Add([]byte("Content-Length: 1"))
	f.Add([]byte("X-Pad: " + strings.Repeat("a", 5000)))
	const max = 4096
	tail := []byte(strings.Repeat(frame(syncBody), (max+maxHeaderSize)/len(frame(syncBody))+3))
	f.Fuzz(func(t *testing.T, garbage []byte) {
		r := newFrameReader(bytes.NewReader(append(garbage[:len(garbage):len(garbage)], tail...)), log.New(io.Discard, "", 0), func(string, string) {})
		r.max = max
		for {
			body, err := r.next()
			if err != nil {
				t.Fatalf("the valid message after %s was never read: %v", quote(garbage), err)
			}
			if len(body) > max {
				t.Fatalf("a body of %d bytes, over the maximum of %d", len(body), max)
			}
			if string(body) == syncBody {
				return
			}
		}
	})
}

// TestFramingReplies checks the error replies that cannot come through jsonrpc2's types (a null
// id, an id we did not parse) in process, to the byte.
func TestFramingReplies(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{frame("{not json"), `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}`},
		{frame(`{"jsonrpc":"2.0","id":"a\"b","method":7}`), `"id":"a\"b","error":{"code":-32600`},
		{frame(`{"jsonrpc":"2.0","id":12.5e1,"method":[]}`), `"id":12.5e1,"error":{"code":-32600`},
		{frame(`{"jsonrpc":"2.0","id":{"x":1},"method":[]}`), `"id":null,"error":{"code":-32600`},
	} {
		in := bytes.NewBufferString(tc.in)
		var out bytes.Buffer
		s := NewServer(io.Discard)
		s.Serve(context.Background(), stdio{in, &out})
		msgs := readFrames(t, out.Bytes())
		if len(msgs) != 1 {
			t.Errorf("%q: %d replies, want 1: %s", tc.in, len(msgs), out.String())
			continue
		}
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%q: reply %s, want %s", tc.in, out.String(), tc.want)
		}
	}
}
