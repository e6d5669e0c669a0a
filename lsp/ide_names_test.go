package lsp

import "github.com/gdl-lsp/gdl/ide"

// evaluatedInHover is the feature layer's list of the relations whose hover shows answers, under
// the name the end-to-end tests use.
var evaluatedInHover = ide.EvaluatedInHover
