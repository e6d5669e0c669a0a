package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

// The request prologue. Every feature handler is a function of its decoded parameters and of the
// snapshot of the document it is about; onDocument and onCallItem make it a method of the table,
// doing once what each handler would otherwise write out: decode the parameters (failures are
// InvalidParams), take the document's snapshot from the view the request arrived with (a
// document that is not open, or out of sync, is an error naming it), stop before the work when
// the request was cancelled or superseded meanwhile, and hand the handler's typed result to
// the dispatcher. withParams does the same for requests that name no document.

// docHandler is a feature handler: the request's parameters p, the snapshot of its document.
type docHandler[P, R any] func(ctx context.Context, r *request, snap *Snapshot, p *P) (R, error)

// onDocument serves a request about the document its textDocument.uri names.
func onDocument[P, R any](f docHandler[P, R]) method {
	return method{handle: prologue(func(r *request, _ *P) (protocol.DocumentURI, error) { return paramURI(r.params, "textDocument"), nil }, f)}
}

// onCallItem serves a call hierarchy request about the document of its item.uri.
func onCallItem[P, R any](f docHandler[P, R]) method {
	return method{handle: prologue(func(r *request, _ *P) (protocol.DocumentURI, error) { return paramURI(r.params, "item"), nil }, f)}
}

// onDocumentOf serves a request whose document where finds in its parameters; an error of
// where (parameters that decode but make no sense) is the answer.
func onDocumentOf[P, R any](where func(r *request, p *P) (protocol.DocumentURI, error), f docHandler[P, R]) method {
	return method{handle: prologue(where, f)}
}

// withParams serves a request that names no document (or finds it in its own way): it decodes
// the parameters and stops when the request was cancelled before f runs.
func withParams[P, R any](f func(ctx context.Context, r *request, p *P) (R, error)) method {
	return method{handle: func(ctx context.Context, r *request) (any, error) {
		var p P
		if err := r.decode(&p); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return f(ctx, r, &p)
	}}
}

// prologue decodes the parameters, takes the snapshot of the document where names, and calls f.
// A cancelled or superseded request stops here; the dispatcher answers it with the error of its
// cause (server.go).
func prologue[P, R any](where func(r *request, p *P) (protocol.DocumentURI, error), f docHandler[P, R]) func(context.Context, *request) (any, error) {
	return func(ctx context.Context, r *request) (any, error) {
		var p P
		if err := r.decode(&p); err != nil {
			return nil, err
		}
		uri, err := where(r, &p)
		if err != nil {
			return nil, err
		}
		snap, err := r.doc(uri)
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return f(ctx, r, snap, &p)
	}
}

// paramURI is the uri of the object field of the parameters (textDocument, item); "" if there
// is none. The parameters have been decoded already, so they are JSON.
func paramURI(params json.RawMessage, field string) protocol.DocumentURI {
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(params, &fields)
	var obj struct {
		URI protocol.DocumentURI `json:"uri"`
	}
	_ = json.Unmarshal(fields[field], &obj)
	return obj.URI
}
