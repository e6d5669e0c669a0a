-- What the headless Neovim tests share: "ok - ..." / "not ok - ..." lines on stdout (print does
-- not reach it headless), the exit status, and the content detection cases of the VS Code
-- extension (GDL_DETECT_CASES) put to the filetype block's gdl_ft.dialect.
local M = { passed = 0, failed = 0, label = "nvim" }

local function out(s) io.stdout:write(s .. "\n") end

function M.check(name, ok, detail)
  if ok then
    M.passed = M.passed + 1
    out("ok - " .. name)
  else
    M.failed = M.failed + 1
    out("not ok - " .. name .. (detail and (": " .. tostring(detail)) or ""))
  end
end

function M.finish()
  out(string.format("%s: %d passed, %d failed", M.label, M.passed, M.failed))
  vim.cmd(M.failed == 0 and "qall!" or "cquit 1")
end

-- The content check decides every case the VS Code extension's unit test decides, alike.
function M.check_detect_cases()
  local f = io.open(os.getenv("GDL_DETECT_CASES"))
  local cases = vim.json.decode(f:read("*a")).cases
  f:close()
  local wrong = {}
  for _, c in ipairs(cases) do
    local got = gdl_ft.dialect(c.text)
    if got ~= c.dialect then table.insert(wrong, c.name .. ": " .. got .. ", want " .. c.dialect) end
  end
  M.check("the filetype detection decides the " .. #cases .. " shared cases as the VS Code extension", #wrong == 0,
    table.concat(wrong, "; "))
end

-- Waits up to ms for an error diagnostic on line (0-based) or the line after it; returns whether
-- one came, and every diagnostic of the buffer as "LINE:message" for the report.
function M.wait_error(buf, line, ms)
  local got = vim.wait(ms, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if (d.lnum == line or d.lnum == line + 1) and d.severity == vim.diagnostic.severity.ERROR then return true end
    end
    return false
  end, 20)
  local all = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do table.insert(all, string.format("%d:%s", d.lnum + 1, d.message)) end
  return got, table.concat(all, " | ")
end

return M
