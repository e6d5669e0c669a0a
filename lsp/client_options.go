package lsp

import "go.lsp.dev/protocol"

// clientOptions are what the server does differently for its client, read from the client's
// capabilities once, at initialize (as gopls' Options.ForClientCapabilities). They never change
// afterwards: they live in the view, which a request holds, so no feature takes a lock to know
// them.
type clientOptions struct {
	hoverMarkdown       bool // hovers in Markdown (else plain text)
	signatureMarkdown   bool // signature documentation in Markdown
	snippets            bool // completion items may be snippets
	hierarchicalSymbols bool // the outline as DocumentSymbol trees (else SymbolInformation)
	workDoneProgress    bool // the server may create progress reports
	pullConfiguration   bool // workspace/configuration answers the settings
	watchFiles          bool // workspace/didChangeWatchedFiles can be registered dynamically
	codeLensRefresh     bool // workspace/codeLens/refresh is understood
	inlayHintRefresh    bool // workspace/inlayHint/refresh is understood
}

// optionsFor reads the options from the client's capabilities.
func optionsFor(c clientCapabilities) clientOptions {
	o := clientOptions{hoverMarkdown: true, signatureMarkdown: true}
	if w := c.Window; w != nil {
		o.workDoneProgress = w.WorkDoneProgress
	}
	if ws := c.Workspace; ws != nil {
		o.pullConfiguration = ws.Configuration
		o.watchFiles = ws.DidChangeWatchedFiles != nil && ws.DidChangeWatchedFiles.DynamicRegistration
		o.codeLensRefresh = ws.CodeLens != nil && ws.CodeLens.RefreshSupport
		o.inlayHintRefresh = ws.InlayHint != nil && ws.InlayHint.RefreshSupport
	}
	td := c.TextDocument
	if td == nil {
		return o
	}
	if td.Hover != nil {
		o.hoverMarkdown = preferMarkdown(td.Hover.ContentFormat)
	}
	if sh := td.SignatureHelp; sh != nil && sh.SignatureInformation != nil && len(sh.SignatureInformation.DocumentationFormat) > 0 {
		o.signatureMarkdown = sh.SignatureInformation.DocumentationFormat[0] == string(protocol.Markdown)
	}
	o.snippets = td.Completion != nil && td.Completion.CompletionItem != nil && td.Completion.CompletionItem.SnippetSupport
	o.hierarchicalSymbols = td.DocumentSymbol != nil && td.DocumentSymbol.HierarchicalDocumentSymbolSupport
	return o
}

// preferMarkdown reads a hover's contentFormat, the formats the client takes in order of
// preference: without one we send Markdown, which every client we know renders.
func preferMarkdown(formats []string) bool {
	if len(formats) == 0 {
		return true
	}
	for _, f := range formats {
		switch protocol.MarkupKind(f) {
		case protocol.Markdown:
			return true
		case protocol.PlainText:
			return false
		}
	}
	return false
}
