package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"strconv"
	"sync"
	"time"

	segjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
)

// The base protocol: a message is a header (lines `Name: value`, ended by an empty line) and then
// Content-Length bytes of JSON. jsonrpc2's reader stops at the first bad header, and skipping its
// error only reads on from the middle of a message, where no header is ever found again. This
// reader recovers instead, because the LSP specification defines no recovery and the clients
// differ on a server that exits: VS Code restarts it (at most 4 times in 3 minutes), eglot when
// it ran for more than 3 seconds, Neovim's built-in client never. So:
//
//   - A header that is not one (a line that is not `Name: value`, no Content-Length, a length
//     that is not a decimal number, two different lengths, a header over maxHeaderSize) is
//     logged, quoting at most logQuote bytes of it, and the reader skips to the next
//     `Content-Length:` after the start of the bad header, matched case-insensitively anywhere in
//     a line: a message whose length was too short leaves its last bytes stuck to the next
//     header. A valid JSON body never looks like a header (a JSON string holds no line break), so
//     skipping through whole messages cannot stop inside one.
//   - A length over the maximum message size is refused before anything is read into memory and
//     skipped the same way; the body is read in growing steps, so a length that the bytes never
//     fill costs only the bytes that came.
//   - A body that is not JSON gets a Parse error (-32700) with a null id; JSON that is not a
//     request gets Invalid Request (-32600) with its id when it has one (JSON-RPC 2.0, section 5).
//     A malformed response from the client is logged and dropped (a response is never answered).
//   - The end of the input inside a message ends the session with the reason on stderr.
//   - Header names are case-insensitive, lines may end in LF alone, unknown headers are ignored.
//
// The first framing error and the first refused message of a session are also shown to the user
// (window/showMessage): an edit or a request may have been lost.

const (
	maxMessageSize = 64 << 20 // bytes of one message's content; larger ones are skipped
	maxHeaderSize  = 4 << 10  // bytes of one message's header lines together
	logQuote       = 64       // bytes of bad input quoted in a log entry
	maxLogged      = 10       // framing errors of a session that are logged
	readBufferSize = 64 << 10
)

var contentLengthPrefix = []byte("content-length:")

// frameReader reads message bodies from the input, skipping what cannot be framed.
type frameReader struct {
	src  io.Reader
	log  *log.Logger
	warn func(kind, text string) // tells the user about a problem; see messageStream.warn
	max  int64                   // bytes of one message's content

	buf  []byte // unread bytes are buf[r:w]
	r, w int
	off  int64 // stream offset of buf[r]
	err  error // of src, once it failed

	problems int // framing errors so far
}

func newFrameReader(src io.Reader, logger *log.Logger, warn func(kind, text string)) *frameReader {
	return &frameReader{src: src, log: logger, warn: warn, max: maxMessageSize, buf: make([]byte, readBufferSize)}
}

// errInput marks the end or failure of the input: the session is over.
type errInput struct{ err error }

func (e errInput) Error() string { return e.err.Error() }
func (e errInput) Unwrap() error { return e.err }

// fill reads more input after the unread bytes, moving them to the front of the buffer first.
// It returns false when the input has ended or failed (f.err). Its callers keep fewer unread
// bytes than the buffer holds (a header is at most maxHeaderSize), so there is always room.
func (f *frameReader) fill() bool {
	if f.err != nil {
		return false
	}
	if f.r > 0 {
		copy(f.buf, f.buf[f.r:f.w])
		f.w -= f.r
		f.r = 0
	}
	for {
		n, err := f.src.Read(f.buf[f.w:])
		f.w += n
		if err != nil {
			f.err = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

func (f *frameReader) consume(n int) {
	f.r += n
	f.off += int64(n)
}

// headerError is a header that cannot be parsed; the reader skips to the next one.
type headerError struct {
	reason string
	tooBig bool // the header was well formed but announced more than the maximum
}

func (e *headerError) Error() string { return e.reason }

// next returns the content of the next message that is framed correctly, skipping (and
// logging) the input that is not. Its error is an errInput: the input ended or failed.
func (f *frameReader) next() ([]byte, error) {
	skipped := int64(-1) // bytes skipped to find this message; -1: none
	for {
		start := f.off
		length, n, err := f.header()
		var herr *headerError
		if errors.As(err, &herr) {
			if skipped < 0 {
				skipped = 0
			}
			f.problems++
			logf := f.log.Printf
			switch {
			case f.problems == maxLogged+1:
				f.log.Printf("more than %d framing errors: the next ones are not logged", maxLogged)
				fallthrough
			case f.problems > maxLogged:
				logf = func(string, ...any) {}
			}
			if herr.tooBig {
				logf("message at byte %d: %s; skipped", start, herr.reason)
				f.warn("too-big", fmt.Sprintf("gdl: the editor sent a message larger than the server accepts (%s); it was skipped, so a document or request it carried is missing.", herr.reason))
			} else {
				logf("malformed message header at byte %d: %s; skipping to the next Content-Length header", start, herr.reason)
				f.warn("malformed", fmt.Sprintf("gdl: the editor sent a malformed message (%s); the server skipped to the next one. If a document looks out of date, close and reopen it.", herr.reason))
			}
			s, ok := f.resync()
			skipped += s
			if !ok {
				return nil, errInput{f.inputEnded("while looking for the next message header")}
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if skipped >= 0 && f.problems <= maxLogged {
			f.log.Printf("found the next message header at byte %d after skipping %d bytes", start, skipped)
		}
		f.consume(n)
		body, err := f.body(length)
		if err != nil {
			return nil, err
		}
		return body, nil
	}
}

// inputEnded describes the end of the input in the middle of something.
func (f *frameReader) inputEnded(where string) error {
	if f.err == io.EOF {
		return fmt.Errorf("input ended %s: %w", where, io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("reading input %s: %w", where, f.err)
}

// header parses the header at the start of the unread bytes without consuming them, except for
// empty lines before it. It returns the content length and the header's size in bytes.
func (f *frameReader) header() (length int64, size int, err error) {
	// Empty lines between messages are tolerated.
	for {
		for f.r < f.w && (f.buf[f.r] == '\r' || f.buf[f.r] == '\n') {
			f.consume(1)
		}
		if f.r < f.w {
			break
		}
		if !f.fill() {
			if f.err == io.EOF {
				return 0, 0, errInput{io.EOF}
			}
			return 0, 0, errInput{f.err}
		}
	}
	length = -1
	i := f.r // start of the current line
	for {
		nl := bytes.IndexByte(f.buf[i:f.w], '\n')
		if nl < 0 {
			if f.w-f.r > maxHeaderSize {
				return 0, 0, &headerError{reason: fmt.Sprintf("header longer than %d bytes: %s", maxHeaderSize, quote(f.buf[f.r:f.w]))}
			}
			i -= f.r
			if !f.fill() {
				return 0, 0, errInput{f.inputEnded("inside a message header " + quote(f.buf[f.r:f.w]))}
			}
			i += f.r
			continue
		}
		end := i + nl + 1
		if end-f.r > maxHeaderSize {
			return 0, 0, &headerError{reason: fmt.Sprintf("header longer than %d bytes: %s", maxHeaderSize, quote(f.buf[f.r:end]))}
		}
		line := f.buf[i : i+nl]
		line = bytes.TrimSuffix(line, []byte{'\r'})
		i = end
		if len(line) == 0 {
			if length < 0 {
				return 0, 0, &headerError{reason: "no Content-Length in header " + quote(f.buf[f.r:end])}
			}
			return length, end - f.r, nil
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 || !isToken(line[:colon]) {
			return 0, 0, &headerError{reason: "invalid header line " + quote(line)}
		}
		if !bytes.EqualFold(line[:colon+1], contentLengthPrefix) {
			continue // Content-Type and unknown fields
		}
		value := bytes.Trim(line[colon+1:], " \t")
		n, ok := parseLength(value)
		switch {
		case !ok:
			return 0, 0, &headerError{reason: "invalid Content-Length " + quote(value)}
		case length >= 0 && n != length:
			return 0, 0, &headerError{reason: fmt.Sprintf("two different Content-Length values, %d and %s", length, quote(value))}
		case n > f.max:
			digits := string(value) // parseLength took only digits
			if len(digits) > 24 {
				digits = digits[:24] + "…"
			}
			return 0, 0, &headerError{tooBig: true, reason: fmt.Sprintf("Content-Length %s is over the maximum of %s", digits, sizeString(f.max))}
		}
		length = n
	}
}

// parseLength parses a decimal Content-Length; a value too large for int64 is reported as the
// largest one (it is over any maximum anyway).
func parseLength(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > (1<<62)/10 {
			n = 1 << 62
			continue
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// isToken reports whether b is an HTTP field name (RFC 9110, section 5.6.2).
func isToken(b []byte) bool {
	for _, c := range b {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case bytes.IndexByte([]byte("!#$%&'*+-.^_`|~"), c) >= 0:
		default:
			return false
		}
	}
	return len(b) > 0
}

// resync skips the first unread byte (the start of the header that failed) and everything up to
// the next `Content-Length:`. It returns how many bytes it skipped and false when the input
// ended first.
func (f *frameReader) resync() (int64, bool) {
	skipped := int64(1)
	f.consume(1)
	for {
		if i := indexFold(f.buf[f.r:f.w], contentLengthPrefix); i >= 0 {
			f.consume(i)
			return skipped + int64(i), true
		}
		// Keep a tail that may be the start of the prefix.
		if keep := len(contentLengthPrefix) - 1; f.w-f.r > keep {
			n := f.w - f.r - keep
			f.consume(n)
			skipped += int64(n)
		}
		if !f.fill() {
			return skipped, false
		}
	}
}

// indexFold is the index of the first ASCII-case-insensitive match of the lower-case pat in b.
func indexFold(b, pat []byte) int {
	lower, upper := pat[0], pat[0]-'a'+'A'
	for i := 0; i+len(pat) <= len(b); i++ {
		if c := b[i]; (c == lower || c == upper) && bytes.EqualFold(b[i:i+len(pat)], pat) {
			return i
		}
	}
	return -1
}

// body reads length bytes of content, in steps, so that memory grows with what arrives.
func (f *frameReader) body(length int64) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(int(min(length, readBufferSize)))
	n := min(int64(f.w-f.r), length)
	b.Write(f.buf[f.r : f.r+int(n)])
	f.consume(int(n))
	for int64(b.Len()) < length {
		if f.err != nil {
			return nil, errInput{f.inputEnded(fmt.Sprintf("inside a message body (%d of %d bytes)", b.Len(), length))}
		}
		got, err := b.ReadFrom(io.LimitReader(readerFunc(f.readSrc), length-int64(b.Len())))
		f.off += got
		if err != nil {
			f.err = err
		}
	}
	return b.Bytes(), nil
}

type readerFunc func([]byte) (int, error)

func (r readerFunc) Read(p []byte) (int, error) { return r(p) }

// readSrc reads from the input directly (the buffer is empty while a body is read past it),
// remembering its failure.
func (f *frameReader) readSrc(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.src.Read(p)
	if err != nil {
		f.err = err
	}
	return n, err
}

// sizeString writes a byte count in MiB or KiB when it is a whole number of them.
func sizeString(n int64) string {
	switch {
	case n > 0 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n > 0 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// quote shows at most logQuote bytes of b, and how long it was.
func quote(b []byte) string {
	if len(b) <= logQuote {
		return strconv.Quote(string(b))
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(string(b[:logQuote])), len(b))
}

// messageStream is the connection's jsonrpc2.Stream: messages read by a frameReader, and
// writes that never block the caller (they join a queue that one goroutine writes out in order,
// so the read loop cannot stall on a client that is itself busy writing to us).
type messageStream struct {
	in   *frameReader
	rwc  io.ReadWriteCloser
	out  jsonrpc2.Stream // jsonrpc2's framing, used for writing only
	log  *log.Logger
	note func(text string) // shows a text to the user, once the connection exists

	// warned is the kinds of problems shown so far. Only the goroutine that reads messages
	// (jsonrpc2's read loop, through Read) touches it, and note is set before that starts.
	warned map[string]bool
	// decoded is the last message Read decoded itself (message_decode.go), which the dispatcher
	// takes its parameters from (takeDecoded). jsonrpc2's read loop calls the handler of a
	// message before it reads the next one, on its own goroutine, so only that goroutine
	// touches it.
	decoded textSyncMessage

	mu      sync.Mutex
	queue   []outgoing
	wake    chan struct{}
	drained chan struct{} // closed by the writer when it stops
	closed  bool
}

// outgoing is a message to write: a jsonrpc2 message, or an error response encoded by us (one
// whose id is null or not ours to parse, which jsonrpc2's types cannot express).
type outgoing struct {
	msg jsonrpc2.Message
	raw []byte
}

func newMessageStream(rwc io.ReadWriteCloser, logger *log.Logger) *messageStream {
	s := &messageStream{rwc: rwc, out: jsonrpc2.NewStream(rwc), log: logger, warned: map[string]bool{},
		wake: make(chan struct{}, 1), drained: make(chan struct{})}
	s.in = newFrameReader(rwc, logger, s.warn)
	go s.writer()
	return s
}

// warn shows a problem of a kind to the user, the first time of the session only.
func (s *messageStream) warn(kind, text string) {
	first := !s.warned[kind]
	s.warned[kind] = true
	if first && s.note != nil {
		s.note(text)
	}
}

func (s *messageStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, err := s.in.next()
		if err != nil {
			return nil, 0, err
		}
		if m, ok := decodeTextSyncMessage(body); ok {
			s.decoded = m
			return m.msg, int64(len(body)), nil
		}
		s.decoded = textSyncMessage{}
		if !segjson.Valid(body) {
			s.log.Printf("message is not JSON: %s", quote(body))
			s.reject(nil, jsonrpc2.ParseError, "Parse error: the message is not valid JSON")
			continue
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			return msg, int64(len(body)), nil
		}
		s.invalid(body, err)
	}
}

// takeDecoded returns the message that Read decoded itself when req is that message, and
// forgets it.
func (s *messageStream) takeDecoded(req jsonrpc2.Request) (textSyncMessage, bool) {
	m := s.decoded
	if m.msg == nil || jsonrpc2.Request(m.msg) != req {
		return textSyncMessage{}, false
	}
	s.decoded = textSyncMessage{}
	return m, true
}

// invalid answers a message that is JSON but not a JSON-RPC message.
func (s *messageStream) invalid(body []byte, err error) {
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(body, &probe) // an array or a scalar leaves it empty
	if probe.Method == nil && probe.ID != nil && (probe.Result != nil || probe.Error != nil) {
		s.log.Printf("dropping a malformed response: %v: %s", err, quote(body))
		return
	}
	s.log.Printf("invalid request: %v: %s", err, quote(body))
	var id json.RawMessage
	if len(probe.ID) > 0 && (probe.ID[0] == '"' || probe.ID[0] == '-' || '0' <= probe.ID[0] && probe.ID[0] <= '9') {
		id = probe.ID
	}
	s.reject(id, jsonrpc2.InvalidRequest, "Invalid Request: "+err.Error())
}

// reject queues an error response; a nil id is written as null.
func (s *messageStream) reject(id json.RawMessage, code jsonrpc2.Code, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	raw, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc2.Error  `json:"error"`
	}{"2.0", id, jsonrpc2.Error{Code: code, Message: message}})
	if err != nil {
		s.log.Printf("encoding an error response: %v", err)
		return
	}
	s.enqueue(outgoing{raw: raw})
}

func (s *messageStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return 0, s.enqueue(outgoing{msg: msg})
}

func (s *messageStream) enqueue(o outgoing) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("connection closed")
	}
	s.queue = append(s.queue, o)
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return nil
}

func (s *messageStream) Close() error { return s.rwc.Close() }

func (s *messageStream) writer() {
	defer close(s.drained)
	for {
		s.mu.Lock()
		batch, closed := s.queue, s.closed
		s.queue = nil
		s.mu.Unlock()
		for _, o := range batch {
			var err error
			if raw, ok := encodeMessage(o.msg); ok {
				o.msg, o.raw = nil, raw
			}
			if o.msg != nil {
				_, err = s.out.Write(context.Background(), o.msg)
			} else if _, err = fmt.Fprintf(s.rwc, "Content-Length: %d\r\n\r\n", len(o.raw)); err == nil {
				_, err = s.rwc.Write(o.raw)
			}
			if err != nil {
				s.log.Printf("write: %v", err)
			}
		}
		if len(batch) == 0 {
			if closed {
				return
			}
			<-s.wake
		}
	}
}

// encodeMessage writes the JSON of a notification, or of a response with a result, as
// jsonrpc2's encoding would (the same members in the same order), but without compacting the
// parameters or the result once more: they were encoded by json.Marshal already, and for the
// diagnostics of a large file (hundreds of KB) compacting them twice was a tenth of the
// server's time per edit. Other messages (calls, errors) are left to jsonrpc2 (ok false).
func encodeMessage(msg jsonrpc2.Message) (raw []byte, ok bool) {
	switch m := msg.(type) {
	case *jsonrpc2.Notification:
		method, err := segjson.Marshal(m.Method())
		if err != nil {
			return nil, false
		}
		b := make([]byte, 0, len(m.Params())+len(method)+40)
		b = append(b, `{"jsonrpc":"2.0","method":`...)
		b = append(b, method...)
		if len(m.Params()) > 0 {
			b = append(b, `,"params":`...)
			b = append(b, m.Params()...)
		}
		return append(b, '}'), true
	case *jsonrpc2.Response:
		if m.Err() != nil || len(m.Result()) == 0 {
			return nil, false
		}
		mid := m.ID()
		id, err := segjson.Marshal(&mid)
		if err != nil {
			return nil, false
		}
		b := make([]byte, 0, len(m.Result())+len(id)+40)
		b = append(b, `{"jsonrpc":"2.0","result":`...)
		b = append(b, m.Result()...)
		b = append(b, `,"id":`...)
		b = append(b, id...)
		return append(b, '}'), true
	}
	return nil, false
}

// flush stops accepting messages and waits (a bounded time) until the queued ones are written.
func (s *messageStream) flush(timeout time.Duration) {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	select {
	case <-s.drained:
	case <-time.After(timeout):
	}
}
