-- Headless Neovim 0.11+ test of docs/editors.md's filetype detection with its vim.lsp.config
-- block (GDL_MODE=config) or its nvim-lspconfig entry (GDL_MODE=lspconfig); run by
-- nvim011_test.sh after the blocks are loaded.
local mode = os.getenv("GDL_MODE")
local t = dofile(os.getenv("GDL_NVIM_COMMON"))
t.label = "nvim " .. mode
local function check(name, ok, detail) t.check(mode .. ": " .. name, ok, detail) end
local finish = t.finish

check("Neovim is 0.11 or newer", vim.fn.has("nvim-0.11") == 1, vim.inspect(vim.version()))
local project = os.getenv("GDL_PROJECT")

t.check_detect_cases()

local function gdl_clients(buf) return vim.lsp.get_clients({ bufnr = buf, name = "gdl" }) end

-- Opens a game, waits for the gdl server and for an error diagnostic on the line holding needle.
local function game(file, filetype, needle)
  vim.cmd("edit " .. project .. "/" .. file)
  local buf = vim.api.nvim_get_current_buf()
  check(file .. " has the filetype " .. filetype, vim.bo[buf].filetype == filetype, "filetype " .. vim.bo[buf].filetype)
  local attached = vim.wait(15000, function() return #gdl_clients(buf) > 0 end, 20)
  check("the gdl server attaches to " .. file, attached)
  if not attached then return buf end
  check("its root is the project (root_markers)", gdl_clients(buf)[1].root_dir == project, gdl_clients(buf)[1].root_dir)
  local bad
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:find(needle, 1, true) then bad = i - 1 end
  end
  local got, all = t.wait_error(buf, bad, 20000)
  check("diagnostics arrive in " .. file .. ": an error on the deliberate mistake (line " .. (bad + 1) .. ")", got, all)
  return buf
end

vim.cmd("edit " .. project .. "/ontology.kif")
local onto = vim.api.nvim_get_current_buf()
check("a SUO-KIF .kif file is not gdl", vim.bo[onto].filetype ~= "gdl" and vim.bo[onto].filetype ~= "gdl-infix", vim.bo[onto].filetype)

local buf = game("tictactoe.kif", "gdl", "(<= (threat ?p ?w)")
game("tictactoe.hrf", "gdl-infix", "threat(P,W) :-")
vim.cmd("edit " .. project .. "/infix_content.kif")
check("a .kif file written in infix is gdl-infix", vim.bo.filetype == "gdl-infix", vim.bo.filetype)
check("one server for both notations", #vim.lsp.get_clients({ name = "gdl" }) == 1, #vim.lsp.get_clients({ name = "gdl" }))
check("no server for the ontology", #gdl_clients(onto) == 0)

-- Hover through Neovim's defaults, on the relation "line" of (<= (line ?x) (row ...)).
vim.api.nvim_set_current_buf(buf)
local row, col
for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
  local c = l:find("(<= (line ?x) (row", 1, true)
  if c then row, col = i - 1, c + 4 end
end
local res = vim.lsp.buf_request_sync(buf, "textDocument/hover",
  { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = row, character = col } }, 10000)
local text = ""
for _, r in pairs(res or {}) do
  if r.result and r.result.contents then text = r.result.contents.value or vim.inspect(r.result.contents) end
end
check("hover on a relation shows its summary", text:find("line/1", 1, true) ~= nil, text)

if mode == "config" then
  -- The block's LspAttach callback turns code lenses on: their titles count answers.
  local lenses = vim.wait(15000, function()
    local ok, l = pcall(vim.lsp.codelens.get, { bufnr = buf })
    return ok and #l > 0
  end, 50)
  check("code lenses show in the game", lenses)
  local map = vim.fn.maparg("<leader>l", "n", false, true)
  check("<leader>l runs a lens in the game's buffer", map.buffer == 1, vim.inspect(map))
end
finish()
