package main

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// gdl check --format sarif: the diagnostics as a SARIF 2.1.0 log (OASIS Static Analysis Results
// Interchange Format), which code scanning services read. One run; its tool's rules are every
// code (the parser's and the checks'), each with its summary, fix and default level; a result
// per diagnostic, with its related locations and fixes. Columns count Unicode characters, as
// in the text output (columnKind unicodeCodePoints). Only the objects and properties below are
// written; TestCheckSARIF checks them against the constraints of the SARIF 2.1.0 schema.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	ShortDescription     sarifText          `json:"shortDescription"`
	Help                 *sarifText         `json:"help,omitempty"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
	Properties           sarifProperties    `json:"properties"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifProperties struct {
	Tags []string `json:"tags"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifText       `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifText            `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent *sarifText  `json:"insertedContent,omitempty"`
}

// sarifLevel maps a severity to a SARIF level: info and hint are notes.
func sarifLevel(s analysis.Severity) string {
	switch s {
	case analysis.Error:
		return "error"
	case analysis.Warning:
		return "warning"
	}
	return "note"
}

// sarifURI writes a path as a URI reference: slashes, and the characters a URI cannot hold
// escaped ("<stdin>" becomes %3Cstdin%3E).
func sarifURI(path string) string {
	u := url.URL{Path: filepath.ToSlash(path)}
	s := u.EscapedPath()
	if strings.Contains(s, ":") && !strings.Contains(s, "/") { // a first segment with ':' reads as a scheme
		s = "./" + s
	}
	return s
}

// sarifRules lists every code: the parser's, then the checks', with their index.
func sarifRules() ([]sarifRule, map[string]int) {
	var rules []sarifRule
	index := map[string]int{}
	add := func(r sarifRule) {
		index[r.ID] = len(rules)
		rules = append(rules, r)
	}
	for _, c := range syntax.Codes {
		add(sarifRule{ID: c, ShortDescription: sarifText{analysis.SyntaxSummary(c)},
			DefaultConfiguration: sarifConfiguration{"error"}, Properties: sarifProperties{Tags: []string{"syntax"}}})
	}
	for _, c := range analysis.Checks {
		add(sarifRule{ID: c.Code, ShortDescription: sarifText{c.Summary}, Help: &sarifText{c.Fix},
			DefaultConfiguration: sarifConfiguration{sarifLevel(c.Severity)}, Properties: sarifProperties{Tags: []string{string(c.Category)}}})
	}
	add(sarifRule{ID: analysis.CodeTooMany, ShortDescription: sarifText{analysis.TooManySummary},
		DefaultConfiguration: sarifConfiguration{"note"}, Properties: sarifProperties{Tags: []string{string(analysis.CategorySyntax)}}})
	return rules, index
}

func writeSARIF(w io.Writer, results []checked) error {
	rules, index := sarifRules()
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "gdl", Version: strings.TrimPrefix(strings.Fields(versionString())[1], "v"),
			Rules: rules}},
		ColumnKind: "unicodeCodePoints",
		Results:    []sarifResult{},
	}
	for _, r := range results {
		uri := sarifURI(r.path)
		region := func(sp syntax.Span) sarifRegion {
			l, c := pos(r.lines, sp.Start)
			el, ec := pos(r.lines, sp.End)
			return sarifRegion{l, c, el, ec}
		}
		for _, d := range r.diags {
			i, ok := index[d.Code]
			if !ok {
				i = -1
			}
			res := sarifResult{RuleID: d.Code, RuleIndex: i, Level: sarifLevel(d.Severity), Message: sarifText{d.Message},
				Locations: []sarifLocation{{PhysicalLocation: sarifPhysicalLocation{sarifArtifactLocation{uri}, region(d.Span)}}}}
			for k, rel := range d.Related {
				id := k + 1
				res.RelatedLocations = append(res.RelatedLocations, sarifLocation{ID: &id,
					PhysicalLocation: sarifPhysicalLocation{sarifArtifactLocation{uri}, region(rel.Span)}, Message: &sarifText{rel.Message}})
			}
			for _, fx := range d.Fixes {
				ch := sarifArtifactChange{ArtifactLocation: sarifArtifactLocation{uri}}
				for _, e := range fx.Edits {
					rep := sarifReplacement{DeletedRegion: region(e.Span)}
					if e.NewText != "" {
						rep.InsertedContent = &sarifText{e.NewText}
					}
					ch.Replacements = append(ch.Replacements, rep)
				}
				if len(ch.Replacements) > 0 {
					res.Fixes = append(res.Fixes, sarifFix{Description: sarifText{fx.Title}, ArtifactChanges: []sarifArtifactChange{ch}})
				}
			}
			run.Results = append(run.Results, res)
		}
	}
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}
