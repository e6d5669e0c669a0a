package analysis

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// ConfigFileName is the project configuration file, looked up from the checked file's folder
// upwards.
const ConfigFileName = "gdl.json"

// Config is the project configuration: severity overrides per diagnostic code and evaluation
// limits. The file format is JSON:
//
//	{
//	  "severity": {"order-hint": "off", "unused-relation": "error"},
//	  "eval": {"timeoutMs": 2000, "maxFacts": 1000000, "maxTermDepth": 64}
//	}
type Config struct {
	Path     string              `json:"-"` // where it was read from; empty for defaults
	Severity map[string]Severity `json:"-"`
	Eval     EvalLimits          `json:"eval"`
}

// EvalLimits bounds one evaluation. Zero fields mean the defaults.
type EvalLimits struct {
	TimeoutMs    int `json:"timeoutMs,omitempty"`
	MaxFacts     int `json:"maxFacts,omitempty"`
	MaxTermDepth int `json:"maxTermDepth,omitempty"`
}

type configFile struct {
	Severity map[string]string `json:"severity"`
	Eval     EvalLimits        `json:"eval"`
}

// ParseConfig reads a configuration from JSON text; path is used in error messages.
func ParseConfig(path string, data []byte) (*Config, error) {
	var cf configFile
	if err := json.Unmarshal(data, &cf); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	c := &Config{Path: path, Severity: map[string]Severity{}, Eval: cf.Eval}
	for code, s := range cf.Severity {
		sev, ok := ParseSeverity(s)
		if !ok {
			return nil, fmt.Errorf("%s: severity of %q must be error, warning, info, hint or off, not %q", path, code, s)
		}
		if !KnownCode(code) {
			return nil, fmt.Errorf("%s: unknown diagnostic code %q (see docs/diagnostics.md)", path, code)
		}
		c.Severity[code] = sev
	}
	return c, nil
}

// FindConfig looks for gdl.json in dir and its parents. It returns nil and no error when there is
// none.
func FindConfig(dir string) (*Config, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for {
		p := filepath.Join(dir, ConfigFileName)
		data, err := os.ReadFile(p)
		if err == nil {
			return ParseConfig(p, data)
		}
		if !os.IsNotExist(err) {
			return nil, err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, nil
		}
		dir = parent
	}
}

// severityFor returns the configured severity for code, or def.
func (c *Config) severityFor(code string, def Severity) Severity {
	if c != nil {
		if s, ok := c.Severity[code]; ok {
			return s
		}
	}
	return def
}
