// Package lsp is the GDL language server: a JSON-RPC dispatcher of our own on top of
// go.lsp.dev/jsonrpc2 framing, a store of immutable document snapshots kept in sync
// incrementally, the configuration (client settings and gdl.json), progress and cancellation,
// and one handler per LSP method (listed in methods.go). The features themselves are package
// ide's: a handler decodes its parameters, takes the document's snapshot, calls ide and converts
// the answer to protocol types.
//
// Only this package knows LSP and JSON-RPC. Everything below it works in byte offsets; the mapper
// (mapper.go) is the single place where offsets become LSP positions, in UTF-16 code units by
// default and in UTF-8 bytes when the client offers that encoding.
package lsp
