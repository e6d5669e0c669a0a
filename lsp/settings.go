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
	return s
}

// merge overlays a JSON settings object (the `gdl` section, or a config file) on s. Fields the
// object does not mention keep their value; values out of range are ignored.
func (s Settings) merge(raw json.RawMessage) (Settings, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return s, nil
	}
	var in struct {
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
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return s, err
	}
	out := s
	if len(in.Severity) > 0 {
		out.Severity = make(map[string]string, len(s.Severity)+len(in.Severity))
		for k, v := range s.Severity {
			out.Severity[k] = v
		}
		for k, v := range in.Severity {
			switch v = strings.ToLower(v); v {
			case "error", "warning", "info", "information", "hint", "off":
				out.Severity[k] = v
			}
		}
	}
	pos := func(dst *int, v *int) {
		if v != nil && *v > 0 {
			*dst = *v
		}
	}
	pos(&out.Eval.TimeoutMs, in.Eval.TimeoutMs)
	pos(&out.Eval.MaxFacts, in.Eval.MaxFacts)
	pos(&out.Eval.MaxTermDepth, in.Eval.MaxTermDepth)
	if in.CodeLens.Enable != nil {
		out.CodeLens.Enable = *in.CodeLens.Enable
	}
	if in.CodeLens.Resolve != nil {
		out.CodeLens.Resolve = *in.CodeLens.Resolve
	}
	if in.InlayHints.Enable != nil {
		out.InlayHints.Enable = *in.InlayHints.Enable
	}
	if in.Diagnostics.Workspace != nil {
		out.Diagnostics.Workspace = *in.Diagnostics.Workspace
	}
	if in.Verify.OnSave != nil {
		out.Verify.OnSave = *in.Verify.OnSave
	}
	if in.Hover.ExplainLinks != nil {
		out.Hover.ExplainLinks = *in.Hover.ExplainLinks
	}
	pos(&out.Verify.MaxStates, in.Verify.MaxStates)
	pos(&out.Verify.TimeoutMs, in.Verify.TimeoutMs)
	return out, nil
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
