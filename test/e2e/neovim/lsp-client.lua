-- Drives Neovim's built-in LSP client (0.7.2+: `vim.lsp.start_client`, no `vim.lsp.start`) against
-- the real server bundle, for test/e2e/neovim.test.ts. Run as:
--   nvim --headless -u NONE -i NONE -n -c 'luafile lsp-client.lua' <tool file>
-- Inputs come from the environment:
--   MTL_SERVER      absolute path of dist/server.js
--   MTL_ROOT        workspace folder (root_dir)
--   MTL_OTHER       a YAML file that is not a tool file (opened and attached too)
--   MTL_OUT         where to write the JSON result
--   MTL_MODE        'full' (diagnostics, hover, two edits, then quit with the server running) or
--                   'crash' (write MTL_OUT once diagnostics arrived, then wait to be killed)
--   MTL_TIMEOUT_MS  bound of each wait (default 5000)
-- Exit codes: 0 done; 2 script error; 3 server did not initialize; 4 no diagnostics in time (at
-- open or after an edit);
-- 5 'crash' mode was not killed in time. Nothing here sleeps a fixed time: every wait polls.

local env = function(name, default)
  local v = os.getenv(name)
  if v == nil or v == '' then
    if default ~= nil then return default end
    error('missing environment variable ' .. name)
  end
  return v
end

local timeout = tonumber(env('MTL_TIMEOUT_MS', '5000'))
local out_path = env('MTL_OUT')
local t0 = vim.loop.hrtime()
local function ms() return math.floor((vim.loop.hrtime() - t0) / 1e6) end

local result = { events = {}, publishes = {} }
local quitting = false
local function event(name) table.insert(result.events, { name = name, ms = ms() }) end

local function write_result()
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.json.encode(result))
  f:close()
end

local function fail(code, msg)
  result.error = msg
  pcall(write_result)
  io.stderr:write('lsp-client.lua: ' .. msg .. '\n')
  vim.cmd('cquit ' .. code)
end

local function main()
  local server = env('MTL_SERVER')
  local root = env('MTL_ROOT')
  local other_path = env('MTL_OTHER')
  local mode = env('MTL_MODE', 'full')

  local tool_buf = vim.api.nvim_get_current_buf()
  vim.bo[tool_buf].filetype = 'yaml'
  local other_buf = vim.fn.bufadd(other_path)
  vim.fn.bufload(other_buf)
  vim.bo[other_buf].filetype = 'yaml'
  local tool_uri = vim.uri_from_bufnr(tool_buf)
  local other_uri = vim.uri_from_bufnr(other_buf)
  result.tool_uri, result.other_uri = tool_uri, other_uri

  -- Last publishDiagnostics per URI, recorded before Neovim's own handler stores them.
  local published = {}
  local default_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
  local exit_info
  local init_result

  local client_id = vim.lsp.start_client({
    name = 'mcp-tool-lint',
    cmd = { 'node', server, '--stdio' },
    root_dir = root,
    settings = {},
    flags = { exit_timeout = 2000 },
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, params, ctx, config)
        if params and params.uri then
          published[params.uri] = params
          table.insert(result.publishes, { uri = params.uri, version = params.version, count = #(params.diagnostics or {}), ms = ms() })
        end
        return default_publish(err, params, ctx, config)
      end,
    },
    on_init = function(_, init)
      init_result = init
      event('initialized')
    end,
    on_exit = function(code, signal)
      exit_info = { code = code, signal = signal, ms = ms() }
      if quitting then
        result.exit = exit_info
        pcall(write_result)
      end
    end,
  })
  if not client_id then return fail(3, 'vim.lsp.start_client returned nil') end
  local client = vim.lsp.get_client_by_id(client_id)
  result.server_pid = client.rpc.pid
  -- The server's real command line, as the kernel sees it (Linux), to prove what was started.
  local f = io.open('/proc/' .. tostring(client.rpc.pid) .. '/cmdline', 'rb')
  if f then
    result.server_argv = vim.split(f:read('*a'):gsub('%z$', ''), '\0', { plain = true })
    f:close()
  end
  event('started')

  assert(vim.lsp.buf_attach_client(tool_buf, client_id), 'cannot attach the tool buffer')
  assert(vim.lsp.buf_attach_client(other_buf, client_id), 'cannot attach the other buffer')

  if not vim.wait(timeout, function() return init_result ~= nil or exit_info ~= nil end, 10) or not init_result then
    return fail(3, 'the server did not answer initialize within ' .. timeout .. ' ms' .. (exit_info and (' (it exited: code ' .. exit_info.code .. ', signal ' .. exit_info.signal .. ')') or ''))
  end
  result.server_info = init_result.serverInfo
  result.capabilities = {
    hover = init_result.capabilities.hoverProvider and true or false,
    text_document_sync = init_result.capabilities.textDocumentSync,
  }

  -- Both documents answered: findings for the tool file, and a (possibly empty) list for the other.
  local got = vim.wait(timeout, function()
    local p = published[tool_uri]
    return p ~= nil and #(p.diagnostics or {}) > 0 and published[other_uri] ~= nil
  end, 10)
  if not got then
    return fail(4, 'no diagnostics within ' .. timeout .. ' ms (tool: ' .. tostring(published[tool_uri] ~= nil) .. ', other: ' .. tostring(published[other_uri] ~= nil) .. ')')
  end
  event('diagnostics')

  if mode == 'crash' then
    result.diagnostics = vim.diagnostic.get(tool_buf)
    write_result()
    -- The test kills Neovim (SIGKILL) now; the server must notice on its own.
    vim.wait(timeout * 4, function() return false end, 50)
    return fail(5, 'was not killed in time')
  end

  -- Another feature through the same client: hover on the tool name (line 0, inside the value).
  local line0 = vim.api.nvim_buf_get_lines(tool_buf, 0, 1, false)[1] or ''
  local name_col = (line0:find(':%s*%S') or 0)
  local name_start = line0:find('%S', name_col + 1) or 1
  local hover, hover_err = vim.lsp.buf_request_sync(tool_buf, 'textDocument/hover', {
    textDocument = { uri = tool_uri },
    position = { line = 0, character = name_start }, -- 0-based: one character into the name
  }, timeout)
  local hover_result = hover and hover[client_id] or nil
  result.hover = { error = hover_err or (hover_result and hover_result.err) or vim.NIL, result = hover_result and hover_result.result or vim.NIL }
  event('hover')

  -- Snapshot what Neovim shows (after the hover round trip, so any re-publish is in).
  result.diagnostics = vim.diagnostic.get(tool_buf)
  result.initial_version = vim.lsp.util.buf_versions[tool_buf]
  result.other_diagnostics = vim.diagnostic.get(other_buf)

  -- Edit as a user would; Neovim sends incremental didChange (debounced, 150 ms by default) and
  -- the server must apply the ranges right: wait for the publish at the buffer's new version.
  local function find_line(pattern)
    for i, l in ipairs(vim.api.nvim_buf_get_lines(tool_buf, 0, -1, false)) do
      if l:match(pattern) then return i - 1, l end
    end
    error('no line matches ' .. pattern)
  end
  local function after_edit(what)
    local want = vim.lsp.util.buf_versions[tool_buf]
    local ok = vim.wait(timeout, function()
      local p = published[tool_uri]
      return p ~= nil and p.version == want
    end, 10)
    if not ok then
      fail(4, 'no diagnostics for version ' .. tostring(want) .. ' after ' .. what .. ' within ' .. timeout .. ' ms')
    end
    event(what)
    table.insert(result.edits, { what = what, version = want, diagnostics = vim.diagnostic.get(tool_buf) })
  end
  result.edits = {}
  -- 1. Fix the misspelt type within its line.
  local l1, text1 = find_line('^%s+type: integr%s*$')
  local c1 = text1:find('integr', 1, true) - 1
  vim.api.nvim_buf_set_text(tool_buf, l1, c1, l1, c1 + #'integr', { 'integer' })
  after_edit('fix-type')
  -- 2. Delete the server-managed property: its key line and the more indented lines under it.
  local l2, text2 = find_line('^%s+organization_id:%s*$')
  local indent = #text2:match('^%s*')
  local last = l2 + 1
  local lines = vim.api.nvim_buf_get_lines(tool_buf, 0, -1, false)
  while lines[last + 1] and #lines[last + 1]:match('^%s*') > indent do last = last + 1 end
  vim.api.nvim_buf_set_lines(tool_buf, l2, last, false, {})
  after_edit('delete-field')

  -- Quit with the client still running, as a user does: Neovim's VimLeavePre handler sends
  -- `shutdown` then `exit` and waits (500 ms by default) before it SIGTERMs the server. The exit
  -- is recorded by on_exit, which rewrites the result; the test checks the PID afterwards.
  result.exit = vim.NIL
  quitting = true
  event('quit')
  write_result()
  vim.cmd('qall!')
end
local ok, err = xpcall(main, debug.traceback)
if not ok then fail(2, tostring(err)) end
