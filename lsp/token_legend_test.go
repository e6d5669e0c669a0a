package lsp

import (
	"encoding/json"
	"os"
	"testing"
)

// standardTokenTypes are the semantic token types LSP 3.17 defines; themes colour these.
var standardTokenTypes = map[string]bool{
	"namespace": true, "type": true, "class": true, "enum": true, "interface": true, "struct": true,
	"typeParameter": true, "parameter": true, "variable": true, "property": true, "enumMember": true,
	"event": true, "function": true, "method": true, "macro": true, "keyword": true, "modifier": true,
	"comment": true, "string": true, "number": true, "regexp": true, "operator": true, "decorator": true,
}

// TestTokenLegendContributed: every token type of the server's legend that LSP does not define
// is contributed by the VS Code extension with a standard super type and TextMate scopes, so
// themes colour it.
func TestTokenLegendContributed(t *testing.T) {
	data, err := os.ReadFile("../vscode-extension/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		Contributes struct {
			SemanticTokenTypes []struct {
				ID        string `json:"id"`
				SuperType string `json:"superType"`
			} `json:"semanticTokenTypes"`
			SemanticTokenScopes []struct {
				Language string              `json:"language"`
				Scopes   map[string][]string `json:"scopes"`
			} `json:"semanticTokenScopes"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	super := map[string]string{}
	for _, c := range manifest.Contributes.SemanticTokenTypes {
		super[c.ID] = c.SuperType
	}
	scopes := map[string][]string{}
	for _, s := range manifest.Contributes.SemanticTokenScopes {
		if s.Language == "gdl" {
			scopes = s.Scopes
		}
	}
	for _, typ := range tokenLegend().TokenTypes {
		name := string(typ)
		if standardTokenTypes[name] {
			continue
		}
		if !standardTokenTypes[super[name]] {
			t.Errorf("token type %q is not contributed with a standard superType (got %q)", name, super[name])
		}
		if len(scopes[name]) == 0 {
			t.Errorf("token type %q has no semanticTokenScopes for gdl", name)
		}
	}
}
