// Package ide is the editor's feature layer, between the game API and the language server: every
// feature is a function of a document snapshot, a byte offset or range and options, returning
// plain Go values in byte spans (syntax.Span). It knows nothing of LSP, JSON-RPC or URIs; the
// server (package lsp) converts its values to protocol types and back, and tests call it
// directly (markers_test.go: a .kif file with markers next to the code, golden output).
//
//   - Snapshot: one version of a document, its analysis and navigation model computed once.
//   - Navigation: Hover, Definition, References, Highlights, PrepareRename and Rename,
//     DocumentSymbols, WorkspaceSymbols (with Index, the game files of the workspace read from
//     disk), FoldingRanges, SelectionRange, SemanticTokens, Completion, the call hierarchy.
//   - Edits: QuickFixes (the analyzer's fixes) and Format.
//   - Evaluated features: the answers in a hover, LensTitle, InlayHints. They ask an Evaluation
//     for answers within a budget; Games gives the one implementation, on the game API, with a
//     per-document game kept while the clauses are unchanged, a memo of results, and
//     evaluations that run at once, what someone is looking at without waiting for the lenses.
//   - The game session of each document (the joint moves played): RunQuery and the state
//     commands (ShowState, Play, PlayRandom, Undo, Reset) of Session.
//   - The game view (game_view.go): every state drawn as boards (package board) with the
//     squares each legal move mentions, GotoStep along the line of joint moves, ComputerMove
//     (package player's MCTS) and Playouts (random matches with their statistics).
package ide
