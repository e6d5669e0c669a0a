-- Headless Neovim 0.7 test of the GDL setup in docs/editors.md; run by nvim_test.sh.
local t = dofile(os.getenv("GDL_NVIM_COMMON"))
local check, finish = t.check, t.finish

vim.g.gdl_server = os.getenv("GDL_BIN")
local ok, err = pcall(vim.cmd, "luafile " .. os.getenv("GDL_SETUP"))
check("the documented setup loads", ok, err)
if not ok then return finish() end

local project = os.getenv("GDL_PROJECT")

t.check_detect_cases()

-- Filetype detection by content: the SUO-KIF file stays out, the game is GDL.
vim.cmd("edit " .. project .. "/ontology.kif")
check("a SUO-KIF .kif file is not gdl", vim.bo.filetype ~= "gdl", "filetype " .. vim.bo.filetype)
vim.cmd("edit " .. project .. "/tictactoe.kif")
local buf = vim.api.nvim_get_current_buf()
check("the game is detected as gdl", vim.bo.filetype == "gdl", "filetype " .. vim.bo.filetype)

local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local function find(needle)
  for i, l in ipairs(lines) do
    local c = l:find(needle, 1, true)
    if c then return i - 1, c - 1 end
  end
  error("not in the game: " .. needle)
end

local attached = vim.wait(10000, function() return #vim.lsp.buf_get_clients(buf) > 0 end, 20)
check("the gdl server attaches", attached)
if not attached then return finish() end
local client = vim.lsp.buf_get_clients(buf)[next(vim.lsp.buf_get_clients(buf))]
vim.wait(10000, function() return client.initialized end, 20)

-- The deliberate error: ?w in (threat ?p ?w) is never bound.
local bad = find("(<= (threat ?p ?w)")
local got, all = t.wait_error(buf, bad, 15000)
check("an error on the deliberate mistake (line " .. (bad + 1) .. ")", got, "diagnostics: " .. all)

local function position(needle, delta)
  local l, c = find(needle)
  return { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = l, character = c + (delta or 0) } }
end
local function request(method, params)
  local res, e = vim.lsp.buf_request_sync(buf, method, params, 10000)
  if not res then return nil, e end
  for _, r in pairs(res) do
    if r.error then return nil, r.error.message end
    return r.result
  end
end

-- Hover on the relation "line" in (<= (line ?x) (row ?m ?x)).
local hover, herr = request("textDocument/hover", position("(<= (line ?x) (row", 5))
local text = ""
if hover and hover.contents then
  text = type(hover.contents) == "string" and hover.contents or hover.contents.value or vim.inspect(hover.contents)
end
check("hover on a relation shows its summary", text:find("line/1", 1, true) and text:find("Three marks", 1, true), herr or text)

-- Go to definition of "row" lands on the row rule.
local def_line = find("(<= (row ?m ?x)")
local defs, derr = request("textDocument/definition", position("(<= (line ?x) (row", 15))
local hit = false
if defs then
  if defs.uri or defs.targetUri then defs = { defs } end
  for _, d in ipairs(defs) do
    local r = d.range or d.targetSelectionRange or d.targetRange
    if r and (r.start.line == def_line) then hit = true end
  end
end
check("go to definition of row lands on line " .. (def_line + 1), hit, derr or vim.inspect(defs))

-- Code lenses: refresh, then run a gdl.runQuery lens and get answers.
pcall(vim.lsp.codelens.refresh)
local lens
vim.wait(10000, function()
  for _, l in ipairs(vim.lsp.codelens.get(buf)) do
    if l.command and l.command.command == "gdl.runQuery" then lens = l return true end
  end
  pcall(vim.lsp.codelens.refresh)
  return false
end, 200)
local direct, lerr = request("textDocument/codeLens", { textDocument = { uri = vim.uri_from_bufnr(buf) } })
check("code lenses carry gdl.runQuery", lens ~= nil,
  "codelens.get: " .. vim.inspect(vim.lsp.codelens.get(buf)) .. "; textDocument/codeLens: " .. (lerr or vim.inspect(direct)):sub(1, 600))
if lens then
  local result, qerr = request("workspace/executeCommand", lens.command)
  local answers = result and result.answers or {}
  check("running the lens " .. lens.command.title .. " returns answers", #answers > 0 and not result.error,
    qerr or vim.inspect(result))
  -- And through the setup's handler, which shows them in a scratch buffer.
  vim.lsp.commands["gdl.runQuery"](lens.command, { bufnr = buf, client_id = client.id })
  local shown = vim.wait(10000, function()
    local b = vim.fn.bufnr("gdl://query")
    return b ~= -1 and #vim.api.nvim_buf_get_lines(b, 0, -1, false) > 1
  end, 50)
  local b = vim.fn.bufnr("gdl://query")
  check("the setup shows the lens's answers in a window", shown,
    b ~= -1 and table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n") or "no gdl://query buffer")
end

-- Neovim resolves lenses (codeLens/resolve): the next lens counts the answers after each legal
-- joint move of the initial state, and running it shows them per joint move.
local next_lens
vim.wait(10000, function()
  for _, l in ipairs(vim.lsp.codelens.get(buf)) do
    if l.command and l.command.title:find("^next: ") then next_lens = l return true end
  end
  pcall(vim.lsp.codelens.refresh)
  return false
end, 200)
local titles = {}
for _, l in ipairs(vim.lsp.codelens.get(buf)) do table.insert(titles, l.command and l.command.title or "(unresolved)") end
check("the resolved next lens counts over the joint moves", next_lens ~= nil and next_lens.command.title:find("after each of 9 joint moves", 1, true) ~= nil,
  table.concat(titles, " | "))
if next_lens then
  vim.lsp.commands["gdl.runQuery"](next_lens.command, { bufnr = buf, client_id = client.id })
  local grouped = vim.wait(10000, function()
    local b = vim.fn.bufnr("gdl://query")
    if b == -1 then return false end
    local text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n")
    return text:find("; after (mark 1 1) noop: ", 1, true) ~= nil
  end, 50)
  local b = vim.fn.bufnr("gdl://query")
  check("running the next lens shows the answers per joint move", grouped,
    b ~= -1 and table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n"):sub(1, 600) or "no gdl://query buffer")
end

-- The state commands print the board: :GdlState after a move shows the 3x3 board drawn in
-- ASCII in the gdl://state window, with the mark; :GdlComputerMove plays the search's move.
local function state_text()
  local b = vim.fn.bufnr("gdl://state")
  return b ~= -1 and table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n") or ""
end
vim.api.nvim_set_current_buf(buf)
gdl.execute("gdl.playMove", { moves = { "(mark 1 1)", "noop" } })
local drawn = vim.wait(10000, function()
  local t = state_text()
  return t:find("; step 1", 1, true) ~= nil and t:find("cell (3 rows, 3 columns)", 1, true) ~= nil
end, 50)
local text = state_text()
check("the state window shows the board drawn in ASCII", drawn and text:find("\n1 x %. %.") ~= nil, text:sub(1, 600))
vim.cmd("GdlComputerMove")
local answered = vim.wait(15000, function() return state_text():find("; step 2", 1, true) ~= nil end, 50)
check(":GdlComputerMove plays oplayer's move", answered and select(2, state_text():gsub(" o", "")) >= 1, state_text():sub(1, 600))
vim.cmd("GdlReset")
vim.wait(10000, function() return state_text():find("; step 0", 1, true) ~= nil end, 50)

-- Explanations: :GdlExplain, and the code action on a literal, show why in the gdl://why window.
local function why_text()
  local b = vim.fn.bufnr("gdl://why")
  return b ~= -1 and table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n") or ""
end
vim.api.nvim_set_current_buf(buf)
vim.cmd("GdlExplain (legal oplayer (mark 1 1))")
local explained = vim.wait(10000, function() return why_text():find("does not hold", 1, true) ~= nil end, 50)
check(":GdlExplain shows why a move is not legal", explained and why_text():find("(true (control oplayer))  fails", 1, true) ~= nil, why_text():sub(1, 600))
local line, col = find("(true (control ?w))")
col = col + 2
local actions = request("textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = line, character = col }, ["end"] = { line = line, character = col } },
  context = { diagnostics = {} },
}) or {}
local explain_action
for _, a in ipairs(actions) do
  if a.command and a.command.command == "gdl.explain" then explain_action = a end
end
check("a code action explains the literal at the cursor", explain_action ~= nil and explain_action.title:find("(true (control ?w))", 1, true) ~= nil, vim.inspect(actions):sub(1, 600))
if explain_action then
  vim.lsp.commands["gdl.explain"](explain_action.command, { bufnr = buf, client_id = client.id })
  local shown = vim.wait(10000, function() return why_text():find("(true (control xplayer))  in the state", 1, true) ~= nil end, 50)
  check("the code action's explanation shows in gdl://why", shown, why_text():sub(1, 600))
end

-- Infix GDL: a .hrf file, and a .kif file whose content is infix, are gdl-infix buffers that the
-- same server serves in their notation.
vim.cmd("edit " .. project .. "/infix_content.kif")
check("a .kif file written in infix is gdl-infix", vim.bo.filetype == "gdl-infix", "filetype " .. vim.bo.filetype)
vim.cmd("edit " .. project .. "/tictactoe.hrf")
local ibuf = vim.api.nvim_get_current_buf()
check("a .hrf file is gdl-infix", vim.bo.filetype == "gdl-infix", "filetype " .. vim.bo.filetype)
local iattached = vim.wait(10000, function() return #vim.lsp.buf_get_clients(ibuf) > 0 end, 20)
check("the gdl server attaches to the .hrf file", iattached)
if iattached then
  local ilines = vim.api.nvim_buf_get_lines(ibuf, 0, -1, false)
  local function ifind(needle)
    for i, l in ipairs(ilines) do
      local c = l:find(needle, 1, true)
      if c then return i - 1, c - 1 end
    end
    error("not in the infix game: " .. needle)
  end
  local ibad = ifind("threat(P,W) :-")
  local igot = vim.wait(15000, function()
    for _, d in ipairs(vim.diagnostic.get(ibuf)) do
      if d.lnum == ibad and d.severity == vim.diagnostic.severity.ERROR and d.message:find("unsafe variable W", 1, true) then return true end
    end
    return false
  end, 20)
  local iall = {}
  for _, d in ipairs(vim.diagnostic.get(ibuf)) do table.insert(iall, string.format("%d:%s", d.lnum + 1, d.message)) end
  check("an error on the infix game's deliberate mistake, in infix (line " .. (ibad + 1) .. ")", igot, table.concat(iall, " | "))
  local l, c = ifind("line(X) :- row(M,X)")
  local ires = vim.lsp.buf_request_sync(ibuf, "textDocument/hover",
    { textDocument = { uri = vim.uri_from_bufnr(ibuf) }, position = { line = l, character = c + 1 } }, 10000)
  local itext = ""
  for _, r in pairs(ires or {}) do
    if r.result and r.result.contents then itext = r.result.contents.value or vim.inspect(r.result.contents) end
  end
  check("hover on an infix relation shows its summary", itext:find("line/1", 1, true) and itext:find("Three marks", 1, true), itext)
  vim.api.nvim_set_current_buf(ibuf)
  gdl.execute("gdl.playMove", { moves = { "mark(1,1)", "noop" } }, ibuf)
  local idrawn = vim.wait(10000, function()
    local t = state_text()
    return t:find("%% step 1") ~= nil and t:find("true(cell(1,1,x))", 1, true) ~= nil
  end, 50)
  check("the state window writes an infix game's state in infix", idrawn and state_text():find("legal(oplayer,mark(1,2))", 1, true) ~= nil, state_text():sub(1, 600))
  gdl.execute("gdl.resetState", {}, ibuf)
  vim.wait(10000, function() return state_text():find("%% step 0") ~= nil end, 50)
end


-- Hovers displayed the way K does, on every name in each shipped game (testdata/games) and in
-- ide/testdata/markers/hover_docs.kif (odd doc comments), each form documented by a comment.
-- K runs vim.lsp.buf.hover, whose default handler renders the Markdown with
-- vim.lsp.util.open_floating_preview; Neovim 0.7 failed there on blank lines before a "---"
-- (issue 10). The handler is wrapped to catch a Lua error (Neovim would only log it) and to read
-- the float it opens.
local evaluated = { init = true, legal = true, goal = true, terminal = true, role = true }
local default_hover = vim.lsp.handlers["textDocument/hover"]
local shown
vim.lsp.handlers["textDocument/hover"] = function(err, result, ctx, config)
  local ok, fbuf, fwin = pcall(default_hover, err, result, ctx, config)
  local value = result and result.contents and (result.contents.value or vim.inspect(result.contents)) or ""
  shown = { ok = ok, error = not ok and tostring(fbuf) or err and err.message or nil, value = value, win = ok and fwin or nil, lines = {} }
  if ok and fbuf and vim.api.nvim_buf_is_valid(fbuf) then
    shown.lines = vim.api.nvim_buf_get_lines(fbuf, 0, -1, false)
  end
end

-- Presses K at (line, col) of the current window and returns what the handler saw, the float
-- closed again (as moving the cursor would); asks again while the evaluation is still running.
local function press_k(line, col)
  for _ = 1, 100 do
    vim.api.nvim_win_set_cursor(0, { line + 1, col })
    shown = nil
    vim.api.nvim_feedkeys("K", "x", false)
    vim.wait(10000, function() return shown ~= nil end, 10)
    local s = shown or { ok = false, error = "no hover reply within 10 s", value = "", lines = {} }
    if s.win and vim.api.nvim_win_is_valid(s.win) then vim.api.nvim_win_close(s.win, true) end
    if not s.value:find("still running", 1, true) then return s end
    vim.wait(100)
  end
  return { ok = false, error = "the evaluation was still running after 100 hovers", value = "", lines = {} }
end

local games = {}
for _, pattern in ipairs(vim.split(os.getenv("GDL_GAMES"), ",", { plain = true })) do
  vim.list_extend(games, vim.fn.glob(pattern, false, true))
end
check("the shipped games are there", #games > 0, os.getenv("GDL_GAMES"))
vim.fn.mkdir(project .. "/games", "p")
for _, path in ipairs(games) do
  local name = vim.fn.fnamemodify(path, ":t")
  -- A comment right above every form, so every hover has a documentation section (in infix,
  -- forms start with a name and comments with %).
  local infix = name:match("%.hrf$") ~= nil
  local form, comment, note = "^%(", "^%s*;", "; the form below, documented"
  if infix then form, comment, note = "^%l", "^%s*%%", "% the form below, documented" end
  local src, documented = vim.fn.readfile(path), {}
  for i, l in ipairs(src) do
    if l:match(form) and not (src[i - 1] or ""):match(comment) then
      table.insert(documented, note)
    end
    table.insert(documented, l)
  end
  local file = project .. "/games/" .. name
  vim.fn.writefile(documented, file)
  vim.cmd("edit " .. file)
  local gbuf = vim.api.nvim_get_current_buf()
  local ready = vim.wait(10000, function()
    return #vim.lsp.buf_get_clients(gbuf) > 0 and vim.fn.maparg("K", "n") ~= ""
  end, 20)
  if not ready then
    check(name .. ": the server attaches and K is mapped", false)
  else
    -- The first occurrence of each name: relations (terminal too, which opens no list),
    -- keywords, functions, constants.
    local targets, seen = {}, {}
    for i, l in ipairs(vim.api.nvim_buf_get_lines(gbuf, 0, -1, false)) do
      local code = infix and l:gsub("%%.*", "") or l:gsub(";.*", "")
      local words = infix and "()([^%s(),&|~.:%%]+)" or "()([^%s();]+)"
      for col, word in code:gmatch(words) do
        if not seen[word] and word:sub(1, 1) ~= "?" and not (infix and word:match("^%u")) then
          seen[word] = true
          table.insert(targets, { word = word, line = i - 1, col = col - 1 })
        end
      end
    end
    -- K on each target in the initial state; then, on the evaluated relations, at the end of a
    -- random playout (legal has no answers in a terminal state: a one-line section).
    local function press_all(list, want)
      local failures, asked = {}, {}
      for _, t in ipairs(list) do
        local s = press_k(t.line, t.col)
        local where = string.format("%s at %d:%d", t.word, t.line + 1, t.col + 1)
        if not s.ok or s.error then
          table.insert(failures, where .. ": " .. tostring(s.error) .. "\n      hover text: " .. vim.inspect(s.value))
        elseif #s.lines == 0 then
          table.insert(failures, where .. ": no float shown for " .. vim.inspect(s.value))
        elseif evaluated[t.word] and not table.concat(s.lines, "\n"):find(want, 1, true) then
          table.insert(failures, where .. ": no \"" .. want .. "\" in the float: " .. vim.inspect(s.lines))
        end
        if evaluated[t.word] then table.insert(asked, t.word) end
      end
      return failures, asked
    end
    local failures, asked = press_all(targets, "In the initial state")
    check(string.format("%s: K shows a hover on each of %d names (%s evaluated)", name, #targets, table.concat(asked, ", ")),
      #failures == 0, "\n    " .. table.concat(failures, "\n    "))

    local steps, state = 0, nil
    repeat
      state = request("workspace/executeCommand", { command = "gdl.playRandom", arguments = { { uri = vim.uri_from_bufnr(gbuf) } } })
      steps = steps + 1
    until not state or state.error or state.terminal or steps == 50
    local final = {}
    for _, t in ipairs(targets) do
      if evaluated[t.word] then table.insert(final, t) end
    end
    local played = state and state.step or 0
    failures = press_all(final, played > 0 and "In the current state" or "In the initial state")
    check(string.format("%s: K on %d evaluated relations after %d random joint moves%s", name, #final, played,
      state and state.terminal and " (terminal)" or ""), played > 0 and #failures == 0,
      vim.inspect(state):sub(1, 300) .. "\n    " .. table.concat(failures, "\n    "))
  end
end

finish()
