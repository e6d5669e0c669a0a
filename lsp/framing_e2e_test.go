package lsp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Framing tests: bytes written to the real binary's stdin as they are, the replies read from its
// stdout.

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

const (
	initBody     = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`
	shutdownBody = `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`
	exitBody     = `{"jsonrpc":"2.0","method":"exit"}`
)

// session is a well-formed session after the case's bytes: initialize (id 1), shutdown (id 2),
// exit.
var session = frame(initBody) + frame(shutdownBody) + frame(exitBody)

// wireMessage is a message of the server as it is on the wire (an id may be null).
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Message string `json:"message"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// summary is "id:ok" for a result, "id:code" for an error.
func (m wireMessage) summary() string {
	if m.Error != nil {
		return fmt.Sprintf("%s:%d", m.ID, m.Error.Code)
	}
	return string(m.ID) + ":ok"
}

// readFrames splits the server's output, which must be framed exactly as the server writes it.
func readFrames(t testing.TB, out []byte) []wireMessage {
	t.Helper()
	var msgs []wireMessage
	for len(out) > 0 {
		rest, ok := bytes.CutPrefix(out, []byte("Content-Length: "))
		i := bytes.Index(rest, []byte("\r\n\r\n"))
		if !ok || i < 0 {
			t.Fatalf("server output is not framed: %q", quote(out))
		}
		n, err := strconv.Atoi(string(rest[:i]))
		if err != nil || i+4+n > len(rest) {
			t.Fatalf("server output has a bad header: %q", quote(out))
		}
		var m wireMessage
		if err := json.Unmarshal(rest[i+4:i+4+n], &m); err != nil {
			t.Fatalf("server sent bad JSON: %v: %s", err, quote(rest[i+4:i+4+n]))
		}
		msgs = append(msgs, m)
		out = rest[i+4+n:]
	}
	return msgs
}

// runRaw writes input to a new `gdl lsp` and closes its stdin; it returns the server's messages,
// its stderr and its exit status once it has exited.
func runRaw(t *testing.T, input []byte) (msgs []wireMessage, stderr string, status int) {
	t.Helper()
	cmd := exec.Command(gdlBinary, "lsp")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errBuf syncBuffer
	cmd.Stderr = &errBuf
	if raceBuild {
		cmd.Env = append(os.Environ(), "GORACE=halt_on_error=1")
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		stdin.Write(input) // fails once the server has exited: the rest is not read
		stdin.Close()
	}()
	outc := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(stdout)
		outc <- b
	}()
	done := make(chan error, 1)
	go func() {
		out := <-outc
		err := cmd.Wait()
		outc <- out
		done <- err
	}()
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the server neither answered nor exited after its input was closed; stderr:\n%s", errBuf.String())
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return readFrames(t, <-outc), errBuf.String(), status
}

// TestFraming sends broken headers and bodies followed by a well-formed session. The server
// answers what can be answered (a body that is not a request gets an error with a null id, per
// JSON-RPC), skips to the next header after one it cannot parse, never keeps more than a
// bounded part of the input in memory or in its log, and exits with an error when the input
// ends inside a message.
func TestFraming(t *testing.T) {
	big := "Content-Length: 2147483647\r\n\r\n"
	for _, tc := range []struct {
		name  string
		input string
		want  string // the replies in order, as id:ok or id:code
		exit  int
		log   string // in stderr
		shown string // in a window/showMessage
	}{
		{name: "valid", input: session, want: "1:ok 2:ok"},
		{name: "length one short (leftover glued to the next header)", input: "Content-Length: 2\r\n\r\n{}}" + session,
			want: "null:-32600 1:ok 2:ok", log: `invalid header line "}Content-Length: 75"`, shown: "malformed message"},
		{name: "length too long (eats the next header)", input: "Content-Length: 10\r\n\r\n{\"a\":1}" + session,
			want: "null:-32700 2:-32002", exit: 1, log: "no Content-Length"},
		{name: "no header", input: `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}` + session,
			want: "1:ok 2:ok", log: "invalid header line"},
		{name: "garbage line before the header", input: "hello world\r\n" + session, want: "1:ok 2:ok"},
		{name: "garbage glued to the header", input: "garbage" + session, want: "1:ok 2:ok", log: "no Content-Length"},
		{name: "binary garbage", input: "\x00\xff\xfe\x80\r\n\r\n" + session, want: "1:ok 2:ok", log: "invalid header line"},
		{name: "length not a number", input: "Content-Length: abc\r\n\r\n{}" + session, want: "1:ok 2:ok", log: `invalid Content-Length "abc"`},
		{name: "negative length", input: "Content-Length: -5\r\n\r\n" + session, want: "1:ok 2:ok", log: "invalid Content-Length"},
		{name: "zero length", input: "Content-Length: 0\r\n\r\n" + session, want: "null:-32700 1:ok 2:ok"},
		{name: "length over the maximum", input: big + session, want: "1:ok 2:ok",
			log: "Content-Length 2147483647 is over the maximum", shown: "larger than the server accepts"},
		{name: "length over int64", input: "Content-Length: 99999999999999999999999999\r\n\r\n" + session, want: "1:ok 2:ok", log: "over the maximum"},
		{name: "two different lengths", input: "Content-Length: 5\r\n" + session, want: "1:ok 2:ok", log: "two different Content-Length values"},
		{name: "the same length twice", input: fmt.Sprintf("Content-Length: %d\r\n", len(initBody)) + session, want: "1:ok 2:ok"},
		{name: "extra headers", input: "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nX-Trace: 1\r\n" + session, want: "1:ok 2:ok"},
		{name: "lower-case header names", input: fmt.Sprintf("content-length: %d\r\ncontent-type: application/vscode-jsonrpc; charset=utf8\r\n\r\n%s", len(initBody), initBody) +
			frame(shutdownBody) + frame(exitBody), want: "1:ok 2:ok"},
		{name: "LF-only line ends", input: fmt.Sprintf("Content-Length: %d\n\n%s", len(initBody), initBody) + frame(shutdownBody) + frame(exitBody), want: "1:ok 2:ok"},
		{name: "spaces around the length", input: fmt.Sprintf("Content-Length:   %d \t\r\n\r\n%s", len(initBody), initBody) + frame(shutdownBody) + frame(exitBody), want: "1:ok 2:ok"},
		{name: "space before the colon", input: fmt.Sprintf("Content-Length : %d\r\n\r\n%s", len(initBody), initBody) + frame(shutdownBody) + frame(exitBody),
			want: "2:-32002", exit: 1, log: `invalid header line "Content-Length : 75"`},
		{name: "empty lines between messages", input: "\r\n\n" + frame(initBody) + "\r\n" + frame(shutdownBody) + "\n\n" + frame(exitBody), want: "1:ok 2:ok"},
		{name: "body not JSON", input: frame("{not json") + session, want: "null:-32700 1:ok 2:ok", log: "not JSON"},
		{name: "trailing bytes after the JSON", input: frame(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}}`) + session, want: "null:-32700 1:ok 2:ok"},
		{name: "JSON that is not a request", input: frame(`[1,2]`) + frame(`{"jsonrpc":"2.0","id":5,"method":7}`) +
			frame(`{"jsonrpc":"1.0","id":6,"result":1}`) + session, want: "null:-32600 5:-32600 1:ok 2:ok", log: "dropping a malformed response"},
		{name: "header line of 50 MB", input: "X-Pad: " + strings.Repeat("a", 50<<20) + "\r\n" + session, want: "1:ok 2:ok", log: "header longer than 4096 bytes"},
		{name: "10,000 header lines", input: strings.Repeat("X-A: b\r\n", 10000) + session, want: "1:ok 2:ok", log: "header longer than 4096 bytes"},
		{name: "10,000 bad headers", input: strings.Repeat("Content-Length: x\r\n", 10000) + session, want: "1:ok 2:ok",
			log: "more than 10 framing errors: the next ones are not logged"},
		{name: "input ends inside a body", input: frame(initBody) + "Content-Length: 100\r\n\r\n{\"jsonrpc\"", want: "1:ok", exit: 1,
			log: "input ended inside a message body (10 of 100 bytes)"},
		{name: "input ends inside a header", input: frame(initBody) + "Content-Len", want: "1:ok", exit: 1, log: "input ended inside a message header"},
		{name: "input ends without exit", input: frame(initBody), want: "1:ok", exit: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs, stderr, status := runRaw(t, []byte(tc.input))
			var replies, shown []string
			for _, m := range msgs {
				switch {
				case m.Method == "window/showMessage":
					shown = append(shown, m.Params.Message)
				case m.Method == "":
					replies = append(replies, m.summary())
				}
			}
			if got := strings.Join(replies, " "); got != tc.want {
				t.Errorf("replies %q, want %q", got, tc.want)
			}
			if status != tc.exit {
				t.Errorf("exit status %d, want %d", status, tc.exit)
			}
			if !strings.Contains(stderr, tc.log) {
				t.Errorf("stderr does not say %q:\n%s", tc.log, stderr)
			}
			if len(stderr) > 8192 {
				t.Errorf("stderr has %d bytes: the input must not be copied to the log:\n%s", len(stderr), quote([]byte(stderr)))
			}
			if tc.shown != "" && (len(shown) != 1 || !strings.Contains(shown[0], tc.shown)) {
				t.Errorf("window/showMessage %q, want one saying %q", shown, tc.shown)
			}
		})
	}
}
