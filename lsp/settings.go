package lsp

import (
	"encoding/json"
	"strings"

	"go.lsp.dev/protocol"
)

// Settings are the user's choices, read from the client's `gdl` configuration section and the
// project config file (view.settingsFor combines them per document). The zero value is not
// useful; start from defaultSettings.
type Settings struct {
	// Severity overrides the severity of diagnostic codes: "error", "warning", "info", "hint"
	// or "off".
	Severity map[string]string `json:"severity,omitempty"`
	Eval     EvalSettings      `json:"eval"`
	CodeLens struct {
		Enable bool `json:"enable"`
		// Resolve: titles are computed in codeLens/resolve (false: in codeLens, for clients
		// that never resolve a lens).
		Resolve bool `json:"resolve"`
	} `json:"codeLens"`
	InlayHints struct {
		Enable bool `json:"enable"`
	} `json:"inlayHints"`
	Diagnostics struct {
		// Workspace: publish the diagnostics of the workspace's game files that are not open
		// (workspace_diagnostics.go).
		Workspace bool `json:"workspace"`
	} `json:"diagnostics"`
	Verify VerifySettings `json:"verify"`
	Hover  struct {
		// ExplainLinks: the answers of evaluated hovers link to their explanations, as command
		// links (command:gdl.explain?...), which VS Code runs; other clients show them as text.
		ExplainLinks bool `json:"explainLinks"`
	} `json:"hover"`
	Tests TestSettings `json:"tests"`
}

// TestSettings configure the runs of game tests (docs/testing.md) in open test documents.
type TestSettings struct {
	// RunInBackground runs the tests of an open test file after each change of it or of its
	// game, and shows the failures as diagnostics at their steps.
	RunInBackground bool `json:"runInBackground"`
	MaxStates       int  `json:"maxStates"` // each can-force and ends-within: states at most
	TimeoutMs       int  `json:"timeoutMs"` // each can-force and ends-within: time at most
}

// VerifySettings configure "Verify game" (gdl.verify) and the verification on save.
type VerifySettings struct {
	OnSave    bool `json:"onSave"`    // verify a game when it is saved (within the budget below)
	MaxStates int  `json:"maxStates"` // states explored at most
	TimeoutMs int  `json:"timeoutMs"` // time at most
}

// EvalSettings are the budgets every evaluation in the editor runs under.
type EvalSettings struct {
	TimeoutMs    int `json:"timeoutMs"`
	MaxFacts     int `json:"maxFacts"`
	MaxTermDepth int `json:"maxTermDepth"`
}

func defaultSettings() Settings {
	var s Settings
	s.Eval = EvalSettings{TimeoutMs: 2000, MaxFacts: 1000000, MaxTermDepth: 64}
	s.CodeLens.Enable = true
	s.CodeLens.Resolve = true
	s.InlayHints.Enable = true
	s.Verify = VerifySettings{MaxStates: 1_000_000, TimeoutMs: 60_000}
	s.Tests = TestSettings{RunInBackground: true, MaxStates: 200_000, TimeoutMs: 10_000}
	return s
}

// merge overlays a JSON settings object (the `gdl` section, or a config file) on s. Fields the
// object does not mention keep their value; values out of range are ignored.
func (s Settings) merge(raw json.RawMessage) (Settings, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return s, nil
	}
	var in settingsInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return s, err
	}
	out := s
	out.Severity = mergeSeverity(s.Severity, in.Severity)
	in.apply(&out)
	return out, nil
}

// settingsInput is a JSON settings object as sent: a field it does not mention is nil.
type settingsInput struct {
	Severity map[string]string `json:"severity"`
	Eval     struct {
		TimeoutMs    *int `json:"timeoutMs"`
		MaxFacts     *int `json:"maxFacts"`
		MaxTermDepth *int `json:"maxTermDepth"`
	} `json:"eval"`
	CodeLens struct {
		Enable  *bool `json:"enable"`
		Resolve *bool `json:"resolve"`
	} `json:"codeLens"`
	InlayHints struct {
		Enable *bool `json:"enable"`
	} `json:"inlayHints"`
	Diagnostics struct {
		Workspace *bool `json:"workspace"`
	} `json:"diagnostics"`
	Verify struct {
		OnSave    *bool `json:"onSave"`
		MaxStates *int  `json:"maxStates"`
		TimeoutMs *int  `json:"timeoutMs"`
	} `json:"verify"`
	Hover struct {
		ExplainLinks *bool `json:"explainLinks"`
	} `json:"hover"`
	Tests struct {
		RunInBackground *bool `json:"runInBackground"`
		MaxStates       *int  `json:"maxStates"`
		TimeoutMs       *int  `json:"timeoutMs"`
	} `json:"tests"`
}

// apply sets the fields of out that in mentions, the numbers only when positive.
func (in *settingsInput) apply(out *Settings) {
	positive(&out.Eval.TimeoutMs, in.Eval.TimeoutMs)
	positive(&out.Eval.MaxFacts, in.Eval.MaxFacts)
	positive(&out.Eval.MaxTermDepth, in.Eval.MaxTermDepth)
	given(&out.CodeLens.Enable, in.CodeLens.Enable)
	given(&out.CodeLens.Resolve, in.CodeLens.Resolve)
	given(&out.InlayHints.Enable, in.InlayHints.Enable)
	given(&out.Diagnostics.Workspace, in.Diagnostics.Workspace)
	given(&out.Verify.OnSave, in.Verify.OnSave)
	given(&out.Hover.ExplainLinks, in.Hover.ExplainLinks)
	positive(&out.Verify.MaxStates, in.Verify.MaxStates)
	positive(&out.Verify.TimeoutMs, in.Verify.TimeoutMs)
	given(&out.Tests.RunInBackground, in.Tests.RunInBackground)
	positive(&out.Tests.MaxStates, in.Tests.MaxStates)
	positive(&out.Tests.TimeoutMs, in.Tests.TimeoutMs)
}

// given sets *dst to *v when v is given.
func given(dst *bool, v *bool) {
	if v != nil {
		*dst = *v
	}
}

// positive sets *dst to *v when v is given and positive.
func positive(dst *int, v *int) {
	if v != nil && *v > 0 {
		*dst = *v
	}
}

// mergeSeverity overlays the severities in (the valid ones, in lower case) on base, in a new
// map; base itself when in has none.
func mergeSeverity(base, in map[string]string) map[string]string {
	if len(in) == 0 {
		return base
	}
	out := make(map[string]string, len(base)+len(in))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range in {
		switch v = strings.ToLower(v); v {
		case "error", "warning", "info", "information", "hint", "off":
			out[k] = v
		}
	}
	return out
}

// severity maps a code's configured severity onto LSP; ok is false when the code is turned off.
func (s Settings) severity(code string, def protocol.DiagnosticSeverity) (protocol.DiagnosticSeverity, bool) {
	switch s.Severity[code] {
	case "error":
		return protocol.DiagnosticSeverityError, true
	case "warning":
		return protocol.DiagnosticSeverityWarning, true
	case "info", "information":
		return protocol.DiagnosticSeverityInformation, true
	case "hint":
		return protocol.DiagnosticSeverityHint, true
	case "off":
		return 0, false
	}
	return def, true
}
