# Sourced by the Neovim tests: the project they open (a .git marker, the extension's fixtures: a
# game with a deliberate mistake, its infix twin as .hrf and as .kif, a SUO-KIF ontology) in
# $T/project, and XDG folders under $T so nothing is written to the home directory.
mkdir -p "$T/project/.git" "$T/state" "$T/cache"
cp "$REPO/vscode-extension/test/fixtures/tictactoe.kif" "$T/project/tictactoe.kif"
cp "$REPO/vscode-extension/test/fixtures/ontology.kif" "$T/project/ontology.kif"
cp "$REPO/vscode-extension/test/fixtures/tictactoe.hrf" "$T/project/tictactoe.hrf"
cp "$REPO/vscode-extension/test/fixtures/tictactoe.hrf" "$T/project/infix_content.kif"
export XDG_STATE_HOME="$T/state" XDG_CACHE_HOME="$T/cache" XDG_CONFIG_HOME="$T/config" XDG_DATA_HOME="$T/data"
export GDL_PROJECT="$T/project" GDL_DETECT_CASES="$REPO/vscode-extension/test/fixtures/detect-cases.json"
export GDL_NVIM_COMMON="$REPO/vscode-extension/test/editors/nvim_common.lua"
