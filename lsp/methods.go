package lsp

import "go.lsp.dev/protocol"

// methodTable lists every method the server serves. Adding a feature is adding a line here and
// a file with its handler; capabilities are derived from this table.
func methodTable() map[string]method {
	return map[string]method{
		// Lifecycle and synchronisation run inline, in arrival order.
		"initialize":                       inline(withParams(handleInitialize)),
		"initialized":                      {inline: true, handle: handleInitialized},
		"shutdown":                         {inline: true, handle: handleShutdown},
		"exit":                             {inline: true, handle: handleExit},
		"$/cancelRequest":                  inline(withParams(handleCancelRequest)),
		"window/workDoneProgress/cancel":   inline(withParams(handleWorkDoneProgressCancel)),
		"workspace/didChangeConfiguration": {inline: true, handle: handleDidChangeConfiguration},
		"workspace/didChangeWatchedFiles":  inline(withParams(handleDidChangeWatchedFiles)),
		// Synchronisation (textsync.go) sends gdl.json documents to the configuration.
		"textDocument/didOpen":   inline(withParams(routeDidOpen)),
		"textDocument/didChange": inline(withParams(routeDidChange)),
		"textDocument/didSave":   inline(withParams(routeDidSave)),
		"textDocument/didClose":  inline(withParams(routeDidClose)),

		// Features: pure functions of the snapshot taken when the request arrived.
		"textDocument/hover":                onDocument(handleHover),
		"textDocument/definition":           onDocument(handleDefinition),
		"textDocument/references":           onDocument(handleReferences),
		"textDocument/documentHighlight":    onDocument(handleDocumentHighlight),
		"textDocument/prepareRename":        onDocument(handlePrepareRename),
		"textDocument/rename":               onDocument(handleRename),
		"textDocument/documentSymbol":       onDocument(handleDocumentSymbol),
		"workspace/symbol":                  withParams(handleWorkspaceSymbol),
		"textDocument/foldingRange":         onDocument(handleFoldingRange),
		"textDocument/selectionRange":       onDocument(handleSelectionRange),
		"textDocument/semanticTokens/full":  onDocument(handleSemanticTokensFull),
		"textDocument/semanticTokens/range": onDocument(handleSemanticTokensRange),
		"textDocument/completion":           onDocument(handleCompletion),
		"textDocument/signatureHelp":        onDocument(handleSignatureHelp),
		"textDocument/prepareCallHierarchy": onDocument(handlePrepareCallHierarchy),
		"callHierarchy/incomingCalls":       onCallItem(handleIncomingCalls),
		"callHierarchy/outgoingCalls":       onCallItem(handleOutgoingCalls),
		"textDocument/codeAction":           onDocument(handleCodeAction),
		"textDocument/codeLens":             onDocument(handleCodeLens),
		"codeLens/resolve":                  onDocumentOf(lensURI, handleCodeLensResolve),
		"textDocument/inlayHint":            onDocument(handleInlayHint),
		"textDocument/formatting":           onDocument(handleFormatting),
		"textDocument/rangeFormatting":      onDocument(handleRangeFormatting),
		"workspace/executeCommand":          withParams(handleExecuteCommand),
	}
}

// inline makes a method run on the read loop, in order with the notifications.
func inline(m method) method {
	m.inline = true
	return m
}

// capabilities advertises what the method table serves.
func (s *Server) capabilities(encoding string) serverCapabilities {
	has := func(m string) bool { _, ok := s.methods[m]; return ok }
	c := serverCapabilities{
		PositionEncoding: encoding,
		TextDocumentSync: textDocumentSyncOptions{
			OpenClose: true,
			Change:    protocol.TextDocumentSyncKindIncremental,
			Save:      &protocol.SaveOptions{IncludeText: false},
		},
		HoverProvider:             has("textDocument/hover"),
		DefinitionProvider:        has("textDocument/definition"),
		ReferencesProvider:        has("textDocument/references"),
		DocumentHighlightProvider: has("textDocument/documentHighlight"),
		DocumentSymbolProvider:    has("textDocument/documentSymbol"),
		WorkspaceSymbolProvider:   has("workspace/symbol"),
		FoldingRangeProvider:      has("textDocument/foldingRange"),
		SelectionRangeProvider:    has("textDocument/selectionRange"),
		CallHierarchyProvider:     has("textDocument/prepareCallHierarchy"),
		InlayHintProvider:         has("textDocument/inlayHint"),
	}
	if has("textDocument/rename") {
		c.RenameProvider = &protocol.RenameOptions{PrepareProvider: has("textDocument/prepareRename")}
	}
	if has("textDocument/completion") {
		c.CompletionProvider = &protocol.CompletionOptions{TriggerCharacters: []string{"(", "?", ","}}
	}
	if has("textDocument/signatureHelp") {
		c.SignatureHelpProvider = &protocol.SignatureHelpOptions{TriggerCharacters: []string{"(", " ", ","}, RetriggerCharacters: []string{")"}}
	}
	if has("textDocument/codeAction") {
		c.CodeActionProvider = &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, sourceFixAll}}
	}
	if has("textDocument/codeLens") {
		c.CodeLensProvider = &protocol.CodeLensOptions{ResolveProvider: has("codeLens/resolve")}
	}
	if has("workspace/executeCommand") {
		c.ExecuteCommandProvider = &protocol.ExecuteCommandOptions{Commands: serverCommands}
	}
	c.DocumentFormattingProvider = has("textDocument/formatting")
	c.DocumentRangeFormattingProvider = has("textDocument/rangeFormatting")
	if has("textDocument/semanticTokens/full") {
		c.SemanticTokensProvider = &semanticTokensOptions{Legend: tokenLegend(), Full: true, Range: has("textDocument/semanticTokens/range")}
	}
	return c
}
