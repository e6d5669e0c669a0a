package lsp

import (
	"go.lsp.dev/protocol"
)

// This file holds the LSP 3.17 types that go.lsp.dev/protocol v0.12.0 lacks or gets wrong for
// our purposes. Everything else comes from that package.

// Position encodings (LSP 3.17 PositionEncodingKind).
const (
	encodingUTF8  = "utf-8"
	encodingUTF16 = "utf-16"
	encodingUTF32 = "utf-32"
)

// JSON-RPC / LSP error codes that jsonrpc2 v0.10.0 does not name.
const (
	codeRequestCancelled = -32800
	codeContentModified  = -32801
	codeRequestFailed    = -32803
)

// initializeParams reads what we need from the client's initialize request beyond
// protocol.InitializeParams: the 3.17 position encodings.
type initializeParams struct {
	protocol.InitializeParams
	Capabilities clientCapabilities `json:"capabilities"`
}

type clientCapabilities struct {
	Window *struct {
		WorkDoneProgress bool `json:"workDoneProgress,omitempty"`
	} `json:"window,omitempty"`
	General *struct {
		PositionEncodings []string `json:"positionEncodings,omitempty"`
	} `json:"general,omitempty"`
	Workspace *struct {
		Configuration         bool `json:"configuration,omitempty"`
		DidChangeWatchedFiles *struct {
			DynamicRegistration bool `json:"dynamicRegistration,omitempty"`
		} `json:"didChangeWatchedFiles,omitempty"`
		CodeLens *struct {
			RefreshSupport bool `json:"refreshSupport,omitempty"`
		} `json:"codeLens,omitempty"`
		InlayHint *struct {
			RefreshSupport bool `json:"refreshSupport,omitempty"`
		} `json:"inlayHint,omitempty"`
	} `json:"workspace,omitempty"`
	TextDocument *struct {
		Hover *struct {
			ContentFormat []string `json:"contentFormat,omitempty"`
		} `json:"hover,omitempty"`
		Completion *struct {
			CompletionItem *struct {
				SnippetSupport bool `json:"snippetSupport,omitempty"`
			} `json:"completionItem,omitempty"`
		} `json:"completion,omitempty"`
		SignatureHelp *struct {
			SignatureInformation *struct {
				DocumentationFormat []string `json:"documentationFormat,omitempty"`
			} `json:"signatureInformation,omitempty"`
		} `json:"signatureHelp,omitempty"`
		Rename *struct {
			PrepareSupport bool `json:"prepareSupport,omitempty"`
		} `json:"rename,omitempty"`
		DocumentSymbol *struct {
			HierarchicalDocumentSymbolSupport bool `json:"hierarchicalDocumentSymbolSupport,omitempty"`
		} `json:"documentSymbol,omitempty"`
		PublishDiagnostics *struct {
			RelatedInformation bool `json:"relatedInformation,omitempty"`
		} `json:"publishDiagnostics,omitempty"`
	} `json:"textDocument,omitempty"`
}

// initializeResult is protocol.InitializeResult with 3.17 server capabilities.
type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

type serverCapabilities struct {
	PositionEncoding                string                                `json:"positionEncoding,omitempty"`
	TextDocumentSync                textDocumentSyncOptions               `json:"textDocumentSync"`
	HoverProvider                   bool                                  `json:"hoverProvider,omitempty"`
	DefinitionProvider              bool                                  `json:"definitionProvider,omitempty"`
	ReferencesProvider              bool                                  `json:"referencesProvider,omitempty"`
	DocumentHighlightProvider       bool                                  `json:"documentHighlightProvider,omitempty"`
	DocumentSymbolProvider          bool                                  `json:"documentSymbolProvider,omitempty"`
	WorkspaceSymbolProvider         bool                                  `json:"workspaceSymbolProvider,omitempty"`
	FoldingRangeProvider            bool                                  `json:"foldingRangeProvider,omitempty"`
	SelectionRangeProvider          bool                                  `json:"selectionRangeProvider,omitempty"`
	CallHierarchyProvider           bool                                  `json:"callHierarchyProvider,omitempty"`
	RenameProvider                  *protocol.RenameOptions               `json:"renameProvider,omitempty"`
	CompletionProvider              *protocol.CompletionOptions           `json:"completionProvider,omitempty"`
	SignatureHelpProvider           *protocol.SignatureHelpOptions        `json:"signatureHelpProvider,omitempty"`
	CodeActionProvider              *protocol.CodeActionOptions           `json:"codeActionProvider,omitempty"`
	CodeLensProvider                *protocol.CodeLensOptions             `json:"codeLensProvider,omitempty"`
	ExecuteCommandProvider          *protocol.ExecuteCommandOptions       `json:"executeCommandProvider,omitempty"`
	SemanticTokensProvider          *semanticTokensOptions                `json:"semanticTokensProvider,omitempty"`
	InlayHintProvider               bool                                  `json:"inlayHintProvider,omitempty"`
	DocumentFormattingProvider      bool                                  `json:"documentFormattingProvider,omitempty"`
	DocumentRangeFormattingProvider bool                                  `json:"documentRangeFormattingProvider,omitempty"`
	Workspace                       *protocol.ServerCapabilitiesWorkspace `json:"workspace,omitempty"`
}

type textDocumentSyncOptions struct {
	OpenClose bool                          `json:"openClose"`
	Change    protocol.TextDocumentSyncKind `json:"change"`
	Save      *protocol.SaveOptions         `json:"save,omitempty"`
}

type semanticTokensOptions struct {
	Legend protocol.SemanticTokensLegend `json:"legend"`
	Full   bool                          `json:"full"`
	Range  bool                          `json:"range"`
}

// didChangeParams replaces protocol.DidChangeTextDocumentParams, whose change events cannot tell
// a full-text replacement (no range) from an insertion at the start of the file.
type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                          `json:"contentChanges"`
}

type contentChange struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// Inlay hints (LSP 3.17).
type inlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

type inlayHint struct {
	Position     protocol.Position `json:"position"`
	Label        string            `json:"label"`
	Kind         int               `json:"kind,omitempty"`    // 1 type, 2 parameter
	Tooltip      any               `json:"tooltip,omitempty"` // a string, or protocol.MarkupContent
	PaddingLeft  bool              `json:"paddingLeft,omitempty"`
	PaddingRight bool              `json:"paddingRight,omitempty"`
}
