module github.com/gdl-lsp/gdl

go 1.26.8
