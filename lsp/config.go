package lsp

import (
	"errors"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"sync"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/internal/readfile"
	"github.com/gdl-lsp/gdl/syntax"
)

// Project configuration. Each document's settings are the client's `gdl` section overlaid with
// the gdl.json that `gdl check` would use for it: the first one found walking up from the
// document's folder (analysis.FindConfig), looked up once per folder and again after a gdl.json
// changes. The file wins over the client per diagnostic code and per limit, so the editor shows
// what `gdl check` and CI report; client settings apply to what the file leaves out.
//
// gdl.json changes reach the server as workspace/didChangeWatchedFiles (registered at startup
// when the client can watch files) and as didSave of an open gdl.json; clients that can do
// neither get the files re-read when any document is saved. A gdl.json that cannot be read or
// parsed is reported as a diagnostic on the file and once in window/showMessage; the documents
// under it then get the client's settings alone. An open gdl.json is checked as it is typed;
// its content applies once saved, as for `gdl check`. Requests about a gdl.json document other
// than synchronisation are answered with null: it is not GDL.

// projectConfig is the result of looking up the gdl.json of one folder.
type projectConfig struct {
	cfg  *analysis.Config // nil: none, or a broken one
	path string           // the gdl.json that applies, broken or not ("" if none)
	err  error
}

// configCache remembers the lookup per folder until a gdl.json changes.
type configCache struct {
	mu    sync.Mutex
	byDir map[string]*projectConfig
	// broken is told about a broken gdl.json the first time a lookup meets it.
	broken func(path string, err error)
}

func newConfigCache(broken func(string, error)) *configCache {
	return &configCache{byDir: map[string]*projectConfig{}, broken: broken}
}

// lookup returns the project configuration for files in dir.
func (cc *configCache) lookup(dir string) *projectConfig {
	cc.mu.Lock()
	pc, ok := cc.byDir[dir]
	cc.mu.Unlock()
	if ok {
		return pc
	}
	cfg, err := analysis.FindConfig(dir)
	pc = &projectConfig{cfg: cfg, err: err}
	if cfg != nil {
		pc.path = cfg.Path
	}
	if err != nil {
		pc.path = brokenConfigPath(dir, err)
	}
	cc.mu.Lock()
	if prev, ok := cc.byDir[dir]; ok {
		pc = prev // another request looked it up meanwhile
	} else {
		cc.byDir[dir] = pc
	}
	cc.mu.Unlock()
	if err != nil && pc.err == err && cc.broken != nil {
		cc.broken(pc.path, err)
	}
	return pc
}

// brokenConfigPath names the gdl.json that FindConfig(dir) failed on: the path of a read error,
// else the candidate (dir/gdl.json, then its parents') that the parse error names.
func brokenConfigPath(dir string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Path
	}
	msg := err.Error()
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, analysis.ConfigFileName)
		if strings.HasPrefix(msg, p+": ") {
			return p
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// settingsFor returns the settings that apply to a document: the session's (defaults and the
// client's section) overlaid with the document's gdl.json.
func (v *view) settingsFor(u protocol.DocumentURI) Settings {
	p := uriPath(u)
	if p == "" || v.configs == nil {
		return v.settings
	}
	pc := v.configs.lookup(filepath.Dir(p))
	if pc.cfg == nil {
		return v.settings
	}
	return overlayConfig(v.settings, pc.cfg)
}

// overlayConfig lays a gdl.json over base: its severities per code and its positive limits win.
func overlayConfig(base Settings, cfg *analysis.Config) Settings {
	out := base
	out.Severity = make(map[string]string, len(base.Severity)+len(cfg.Severity))
	for k, v := range base.Severity {
		out.Severity[k] = v
	}
	for code, sev := range cfg.Severity {
		out.Severity[code] = sev.String()
	}
	pos := func(dst *int, v int) {
		if v > 0 {
			*dst = v
		}
	}
	pos(&out.Eval.TimeoutMs, cfg.Eval.TimeoutMs)
	pos(&out.Eval.MaxFacts, cfg.Eval.MaxFacts)
	pos(&out.Eval.MaxTermDepth, cfg.Eval.MaxTermDepth)
	return out
}

// isConfigURI reports whether a document is a project configuration file.
func isConfigURI(u protocol.DocumentURI) bool {
	return path.Base(string(u)) == analysis.ConfigFileName
}

// configDoc is an open gdl.json: its text as the client has it.
type configDoc struct {
	text    string
	version int32
}

// reportBrokenConfig is called when a lookup meets a broken gdl.json: it publishes the problem
// on the file (unless the file is open, whose text is checked as typed) and shows it once.
func (s *Server) reportBrokenConfig(p string, err error) {
	if p == "" {
		s.log.Printf("project config: %v", err)
		s.showConfigProblem("", err.Error())
		return
	}
	s.checkConfigFile(p)
}

// checkConfigFile reads a gdl.json from disk and publishes its problems (none: an empty list),
// unless the client has it open. A problem is also shown once in window/showMessage.
func (s *Server) checkConfigFile(p string) {
	u := protocol.DocumentURI(uri.File(p))
	if _, open := s.currentView().configDocs[u]; open {
		return
	}
	data, err := readfile.Regular(p, readfile.ConfigLimit)
	if errors.Is(err, fs.ErrNotExist) {
		s.publishConfigDiagnostics(u, 0, nil)
		s.forgetConfigProblem(p)
		return
	}
	var diags []protocol.Diagnostic
	if err != nil {
		diags = []protocol.Diagnostic{{Severity: protocol.DiagnosticSeverityError, Source: "gdl", Message: err.Error()}}
	} else {
		diags = s.configDiagnostics(p, string(data))
	}
	s.publishConfigDiagnostics(u, 0, diags)
	if len(diags) == 0 {
		s.forgetConfigProblem(p)
		return
	}
	s.showConfigProblem(p, p+": "+diags[0].Message)
}

func (s *Server) showConfigProblem(p, msg string) {
	s.mu.Lock()
	seen := s.configShown[p] == msg
	s.configShown[p] = msg
	s.mu.Unlock()
	if !seen {
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeError,
			Message: "GDL project configuration ignored: " + msg})
	}
}

func (s *Server) forgetConfigProblem(p string) {
	s.mu.Lock()
	delete(s.configShown, p)
	s.mu.Unlock()
}

func (s *Server) publishConfigDiagnostics(u protocol.DocumentURI, version int32, diags []protocol.Diagnostic) {
	if diags == nil {
		diags = []protocol.Diagnostic{}
	}
	s.publishDiagnostics(protocol.PublishDiagnosticsParams{URI: u, Version: uint32(version), Diagnostics: diags}, nil)
}

// configDiagnostics checks the text of a gdl.json with analysis.ParseConfig and places its
// complaint where ParseConfig says the fault is: the token at that offset.
func (s *Server) configDiagnostics(p, text string) []protocol.Diagnostic {
	_, err := analysis.ParseConfig(p, []byte(text))
	if err == nil {
		return nil
	}
	msg, start := err.Error(), 0
	var ce *analysis.ConfigError
	if errors.As(err, &ce) {
		msg, start = ce.Message, min(max(ce.Offset, 0), len(text))
	}
	end := start + tokenLength(text[start:])
	m := mapper{lines: syntax.NewLineIndex(text), enc: s.currentView().enc}
	return []protocol.Diagnostic{{Range: m.rng(start, end), Severity: protocol.DiagnosticSeverityError,
		Source: "gdl", Message: msg + " (the file is ignored until this is fixed)"}}
}

// tokenLength returns the length of the JSON token at the start of text: a string with its
// quotes, a number or word, or one character; 0 at the end of the text.
func tokenLength(text string) int {
	if text == "" {
		return 0
	}
	if text[0] == '"' {
		for i := 1; i < len(text); i++ {
			switch text[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			case '\n':
				return i
			}
		}
		return len(text)
	}
	n := 0
	for n < len(text) && strings.IndexByte(" \t\r\n,:{}[]\"", text[n]) < 0 {
		n++
	}
	return max(n, 1)
}

// configChanged re-reads the project configuration after a gdl.json changed and republishes the
// diagnostics of the documents whose settings changed (and asks for fresh lenses and hints).
// The view gets a new, empty configuration cache; the settings of each document under the view
// before are compared with those under the view after. Two of these may run at once: the last
// to replace the cache compares with the configuration the other read, so that a change is
// noticed by one of them at least.
func (s *Server) configChanged() {
	var before *view
	after := s.updateView(func(_ map[protocol.DocumentURI]*Snapshot, v *view) {
		old := *v
		before = &old
		v.configs = newConfigCache(s.reportBrokenConfig)
	})
	changed := false
	for u := range after.docs {
		if _, open := before.docs[u]; open && !reflect.DeepEqual(before.settingsFor(u), after.settingsFor(u)) {
			s.scheduleDiagnostics(u)
			changed = true
		}
	}
	if changed {
		s.refreshEvaluations()
	}
}

// setConfigDoc records an open gdl.json's text and publishes its problems for that version.
func (s *Server) setConfigDoc(u protocol.DocumentURI, d *configDoc) {
	s.updateConfigDocs(func(docs map[protocol.DocumentURI]*configDoc) { docs[u] = d })
	p := uriPath(u)
	if p == "" {
		p = string(u)
	}
	s.publishConfigDiagnostics(u, d.version, s.configDiagnostics(p, d.text))
}

// isConfigDoc reports whether u is an open gdl.json.
func (v *view) isConfigDoc(u protocol.DocumentURI) bool {
	_, ok := v.configDocs[u]
	return ok && u != ""
}

// updateConfigDocs replaces the view with one whose open gdl.json documents are f applied to a
// copy of them. Only the synchronisation notifications change them, on the read loop.
func (s *Server) updateConfigDocs(f func(docs map[protocol.DocumentURI]*configDoc)) {
	s.updateView(func(_ map[protocol.DocumentURI]*Snapshot, v *view) {
		docs := make(map[protocol.DocumentURI]*configDoc, len(v.configDocs)+1)
		maps.Copy(docs, v.configDocs)
		f(docs)
		v.configDocs = docs
	})
}

// boardsFor returns the gdl.json board section that applies to a document (none without a
// gdl.json, or with a broken one).
func (v *view) boardsFor(u protocol.DocumentURI) analysis.BoardConfig {
	p := uriPath(u)
	if p == "" || v.configs == nil {
		return analysis.BoardConfig{}
	}
	if pc := v.configs.lookup(filepath.Dir(p)); pc.cfg != nil {
		return pc.cfg.Board
	}
	return analysis.BoardConfig{}
}
