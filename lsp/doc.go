// Package lsp is the GDL language server: a JSON-RPC dispatcher of our own on top of
// go.lsp.dev/jsonrpc2 framing, a store of immutable document snapshots kept in sync incrementally,
// and one file per LSP feature. Features are pure functions of a snapshot; the handlers that call
// them are listed in one table (methods.go).
//
// Only this package knows LSP and JSON-RPC. Everything below it works in byte offsets; the mapper
// (mapper.go) is the single place where offsets become LSP positions, in UTF-16 code units by
// default and in UTF-8 bytes when the client offers that encoding.
package lsp
