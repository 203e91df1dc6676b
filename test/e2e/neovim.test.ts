/**
 * End to end with a real third-party LSP client: Neovim (headless, no user config, scratch XDG
 * folders) starts the real bundle `node dist/server.js --stdio`, opens a tool file and a YAML file
 * that is not one, and we check what Neovim itself shows: `vim.diagnostic.get(buf)`.
 *
 * Neovim is installed by scripts/e2e/ensure-neovim.sh when missing (Debian's package, root only);
 * without root and without nvim the tests skip with the reason. `npm test` builds dist/ first.
 * The Lua side is test/e2e/neovim/lsp-client.lua; every wait there and here polls, bounded.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SERVER = join(ROOT, 'dist', 'server.js');
const ENSURE = join(ROOT, 'scripts', 'e2e', 'ensure-neovim.sh');
const HERE = join(__dirname, 'neovim');
const LUA = join(HERE, 'lsp-client.lua');
const TOOL_FIXTURE = 'create_project.yaml';
const OTHER_FIXTURE = 'ci.yaml';
/** Bound of each wait inside Neovim, and of a whole Neovim run here. */
const WAIT_MS = 5000;
const RUN_MS = 30_000;

/** Exit codes of ensure-neovim.sh that mean "cannot install here": skip, with its message. */
const ENSURE_SKIP = new Set([3, 4]);

function ensureNeovim(): { nvim?: string; skip?: string } {
  const r = spawnSync('sh', [ENSURE], { encoding: 'utf8', timeout: 280_000 });
  if (r.status === 0) return { nvim: r.stdout.trim().split('\n').pop() };
  if (r.status !== null && ENSURE_SKIP.has(r.status)) return { skip: `Neovim unavailable: ${r.stderr.trim()}` };
  throw new Error(`ensure-neovim.sh failed (status ${r.status}, signal ${r.signal}):\n${r.stderr}`);
}

const ensured = ensureNeovim();
const SKIP = ensured.skip ?? false;

// ---------------------------------------------------------------------------------------------

interface VimDiagnostic {
  lnum: number;
  col: number;
  end_lnum: number;
  end_col: number;
  severity: number;
  message: string;
  source?: string;
  code?: string;
  user_data?: { lsp?: { codeDescription?: { href?: string } } };
}

interface LuaResult {
  error?: string;
  tool_uri: string;
  other_uri: string;
  server_pid?: number;
  server_argv?: string[];
  server_info?: { name?: string; version?: string };
  capabilities?: { hover?: boolean };
  events: { name: string; ms: number }[];
  publishes: { uri: string; version?: number; count: number; ms: number }[];
  diagnostics?: VimDiagnostic[] | Record<string, never>;
  other_diagnostics?: VimDiagnostic[] | Record<string, never>;
  hover?: { error: unknown; result: { contents?: unknown } | null };
  exit?: { code: number; signal: number; ms: number } | null;
  initial_version?: number;
  edits?: { what: string; version: number; diagnostics: VimDiagnostic[] | Record<string, never> }[];
}

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  ms: number;
  out: LuaResult | null;
  scratch: string;
}

/** vim.json encodes an empty Lua table as `{}` or `[]`. */
const list = <T>(x: T[] | Record<string, never> | undefined | null): T[] => (Array.isArray(x) ? x : Object.values(x ?? {}));

function readJson(path: string): LuaResult | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LuaResult;
  } catch {
    return null;
  }
}

/** A scratch workspace (the two fixtures) and scratch XDG folders, so nothing of the user's is read or written. */
function scratchWorkspace(): { scratch: string; ws: string; env: NodeJS.ProcessEnv } {
  const scratch = mkdtempSync(join(tmpdir(), 'mtl-nvim-'));
  const ws = join(scratch, 'ws');
  mkdirSync(ws);
  copyFileSync(join(HERE, TOOL_FIXTURE), join(ws, TOOL_FIXTURE));
  copyFileSync(join(HERE, OTHER_FIXTURE), join(ws, OTHER_FIXTURE));
  const xdg = (n: string) => {
    const p = join(scratch, 'xdg', n);
    mkdirSync(p, { recursive: true });
    return p;
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // The server runs on the Node that runs the tests.
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
    XDG_CONFIG_HOME: xdg('config'),
    XDG_DATA_HOME: xdg('data'),
    XDG_STATE_HOME: xdg('state'),
    XDG_CACHE_HOME: xdg('cache'),
    MTL_SERVER: SERVER,
    MTL_ROOT: ws,
    MTL_OTHER: join(ws, OTHER_FIXTURE),
    MTL_OUT: join(scratch, 'result.json'),
    MTL_TIMEOUT_MS: String(WAIT_MS),
  };
  return { scratch, ws, env };
}

/** `:luafile` takes a file name: escape what Ex would interpret. */
const exFile = (p: string) => p.replace(/[ \\%#|"]/g, '\\$&');

/** Neovim's own LSP log and message log, for failure messages. */
function nvimLogs(scratch: string): string {
  const out: string[] = [];
  for (const p of [join(scratch, 'xdg', 'cache', 'nvim', 'lsp.log'), join(scratch, 'xdg', 'state', 'nvim', 'lsp.log'), join(scratch, 'xdg', 'cache', 'nvim', 'log'), join(scratch, 'xdg', 'state', 'nvim', 'log')]) {
    if (existsSync(p)) out.push(`--- ${p}\n${readFileSync(p, 'utf8').slice(-4000)}`);
  }
  return out.join('\n');
}

/**
 * Runs `nvim --headless -u NONE -i NONE -n -c 'luafile lsp-client.lua' <tool file>`.
 * `onResult` (crash mode) is called once the Lua side wrote its result, with the Neovim process.
 */
function runNeovim(mode: 'full' | 'crash', onResult?: (pid: number, out: LuaResult) => void): Promise<Run> {
  const { scratch, ws, env } = scratchWorkspace();
  env.MTL_MODE = mode;
  const t0 = performance.now();
  const child = spawn(ensured.nvim ?? 'nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${exFile(LUA)}`, join(ws, TOOL_FIXTURE)], {
    cwd: ws,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.resume();
  return new Promise<Run>((resolve, reject) => {
    const killer = setTimeout(() => {
      if (child.pid) process.kill(child.pid, 'SIGKILL');
    }, RUN_MS);
    let poll: NodeJS.Timeout | undefined;
    if (onResult) {
      // Poll for the result file (written in one go; a partial read just fails to parse).
      poll = setInterval(() => {
        const out = readJson(env.MTL_OUT!);
        if (out && child.pid) {
          clearInterval(poll);
          poll = undefined;
          onResult(child.pid, out);
        }
      }, 10);
    }
    child.on('error', (e) => {
      clearTimeout(killer);
      if (poll) clearInterval(poll);
      reject(e);
    });
    child.on('close', (status, signal) => {
      clearTimeout(killer);
      if (poll) clearInterval(poll);
      resolve({ status, signal, stderr, ms: Math.round(performance.now() - t0), out: readJson(env.MTL_OUT!), scratch });
    });
  });
}

/** Whether a PID is a live process (a zombie has exited; a reused PID that is not our server is not ours). */
function serverAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (/^\d+ \(.*\) Z/.test(stat)) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(SERVER);
  } catch {
    return false;
  }
}

/** Poll until the server process is gone; if it never goes, end it (by PID) and report. */
async function waitGone(pid: number, timeoutMs: number): Promise<number> {
  const t0 = performance.now();
  while (serverAlive(pid)) {
    if (performance.now() - t0 > timeoutMs) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
      throw new Error(`the server (pid ${pid}) was still running ${timeoutMs} ms after Neovim exited: an orphan`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return Math.round(performance.now() - t0);
}

/** Where a token is in the fixture, 0-based, as Neovim reports it (byte columns; the fixture is ASCII). */
function locate(text: string, lineMatch: RegExp, token: string): { lnum: number; col: number; end_lnum: number; end_col: number } {
  const lines = text.split('\n');
  const lnum = lines.findIndex((l) => lineMatch.test(l));
  assert.ok(lnum >= 0, `fixture has no line matching ${lineMatch}`);
  const col = lines[lnum].indexOf(token);
  return { lnum, col, end_lnum: lnum, end_col: col + token.length };
}

const SEVERITY = { ERROR: 1, WARN: 2 } as const;

// ---------------------------------------------------------------------------------------------

describe('Neovim (real LSP client) with dist/server.js --stdio', { skip: SKIP }, () => {
  let run: Run;
  let out: LuaResult;
  let goneAfterMs: number | undefined;
  let goneError: Error | undefined;
  let keep = false;

  before(async () => {
    assert.ok(existsSync(SERVER), `${SERVER} is missing: run \`npm run build\` first`);
    run = await runNeovim('full');
    const why = `nvim exited with status ${run.status} (signal ${run.signal}) in ${run.ms} ms\nstderr:\n${run.stderr}\nresult: ${JSON.stringify(run.out?.error ?? run.out)}\n${nvimLogs(run.scratch)}`;
    if (run.status !== 0 || !run.out) {
      keep = true;
      throw new Error(why);
    }
    out = run.out;
    if (out.server_pid) {
      try {
        goneAfterMs = await waitGone(out.server_pid, 3000);
      } catch (e) {
        goneError = e as Error;
      }
    }
  });

  after(() => {
    if (run && !keep) rmSync(run.scratch, { recursive: true, force: true });
    else if (run) console.error(`kept the Neovim scratch folder: ${run.scratch}`);
  });

  it('starts the real bundle with --stdio and initializes', () => {
    assert.ok(out.server_pid && out.server_pid > 0, 'no server PID');
    if (out.server_argv) {
      assert.match(out.server_argv[0], /(^|\/)node$/);
      assert.deepEqual(out.server_argv.slice(1), [SERVER, '--stdio']);
    }
    assert.equal(out.server_info?.name, 'mcp-tool-lint');
    assert.ok(out.events.some((e) => e.name === 'initialized'));
  });

  it('shows the expected diagnostics in the tool file, at the fixture positions', () => {
    const text = readFileSync(join(HERE, TOOL_FIXTURE), 'utf8');
    const diags = list(out.diagnostics).map((d) => ({ code: d.code, severity: d.severity, source: d.source, lnum: d.lnum, col: d.col, end_lnum: d.end_lnum, end_col: d.end_col }));
    diags.sort((a, b) => a.lnum - b.lnum || a.col - b.col);
    assert.deepEqual(diags, [
      { code: 'schema-invalid', severity: SEVERITY.ERROR, source: 'mcp-tool-lint', ...locate(text, /^\s+type: integr\s*$/, 'integr') },
      { code: 'system-field-exposed', severity: SEVERITY.WARN, source: 'mcp-tool-lint', ...locate(text, /^\s+organization_id:\s*$/, 'organization_id') },
    ]);
    for (const d of list(out.diagnostics)) {
      assert.ok(d.message.length > 0);
      assert.match(d.user_data?.lsp?.codeDescription?.href ?? '', new RegExp(`docs/rules/${d.code}\\.md$`));
    }
    assert.match(list(out.diagnostics).find((d) => d.code === 'system-field-exposed')!.message, /organization_id/);
  });

  it('publishes an empty list for a YAML file that is not a tool file', () => {
    const other = out.publishes.filter((p) => p.uri === out.other_uri);
    assert.ok(other.length > 0, 'the server never answered for the non-tool YAML file');
    assert.deepEqual(other.map((p) => p.count), other.map(() => 0));
    assert.deepEqual(list(out.other_diagnostics), []);
    // And every publish for the opened tool file carried its findings (no flicker through an empty list).
    const tool = out.publishes.filter((p) => p.uri === out.tool_uri && p.version === out.initial_version);
    assert.ok(tool.length > 0 && tool.every((p) => p.count === 2), JSON.stringify(tool));
  });

  it('follows incremental edits made in Neovim (didChange ranges applied right)', () => {
    const text = readFileSync(join(HERE, TOOL_FIXTURE), 'utf8');
    const edits = out.edits ?? [];
    assert.deepEqual(edits.map((e) => e.what), ['fix-type', 'delete-field']);
    assert.ok(edits[0].version > (out.initial_version ?? -1) && edits[1].version > edits[0].version, JSON.stringify(edits.map((e) => e.version)));
    // Fixing `integr` within its line leaves only the exposed field, still at its place.
    const first = list(edits[0].diagnostics).map((d) => ({ code: d.code, lnum: d.lnum, col: d.col, end_lnum: d.end_lnum, end_col: d.end_col }));
    assert.deepEqual(first, [{ code: 'system-field-exposed', ...locate(text, /^\s+organization_id:\s*$/, 'organization_id') }]);
    // Deleting the property's lines leaves nothing.
    assert.deepEqual(list(edits[1].diagnostics), []);
  });

  it('answers hover on the tool name with the prompt preview', () => {
    assert.equal(out.capabilities?.hover, true, 'the server does not advertise hoverProvider');
    assert.equal(out.hover?.error ?? null, null, `hover failed: ${JSON.stringify(out.hover?.error)}`);
    const contents = out.hover?.result?.contents;
    const text = typeof contents === 'string' ? contents : Array.isArray(contents) ? JSON.stringify(contents) : ((contents as { value?: string } | undefined)?.value ?? '');
    assert.match(text, /^### create_project$/m, `hover: ${JSON.stringify(out.hover)}`);
  });

  it('the server exits cleanly when Neovim quits (shutdown, exit; no orphan)', () => {
    assert.equal(goneError, undefined, goneError?.message);
    assert.ok(goneAfterMs !== undefined, 'no server PID to check');
    assert.ok(out.exit, "Neovim did not see the server exit within its 500 ms exit timeout (it then sends SIGTERM)");
    assert.deepEqual({ code: out.exit.code, signal: out.exit.signal }, { code: 0, signal: 0 });
  });

  it('is fast', (t) => {
    const at = (n: string) => out.events.find((e) => e.name === n)?.ms;
    t.diagnostic(`nvim run ${run.ms} ms; initialized at ${at('initialized')} ms, diagnostics at ${at('diagnostics')} ms, hover at ${at('hover')} ms, edits done at ${at('delete-field')} ms, server exit at ${out.exit?.ms} ms; PID gone ${goneAfterMs} ms after nvim`);
    // Generous bound: about 0.3-0.5 s here; a slow CI machine must not flake.
    assert.ok(run.ms < 10_000, `took ${run.ms} ms`);
  });
});

describe('Neovim killed (SIGKILL) with the server running', { skip: SKIP }, () => {
  it('the server notices its client is gone and exits: no orphan', async (t) => {
    assert.ok(existsSync(SERVER), `${SERVER} is missing: run \`npm run build\` first`);
    let serverPid: number | undefined;
    const run = await runNeovim('crash', (nvimPid, out) => {
      serverPid = out.server_pid;
      process.kill(nvimPid, 'SIGKILL');
    });
    try {
      assert.equal(run.signal, 'SIGKILL', `nvim was not killed as planned: status ${run.status}\n${run.stderr}\n${JSON.stringify(run.out)}\n${nvimLogs(run.scratch)}`);
      assert.ok(serverPid, 'no server PID');
      // The server reads stdin from Neovim: end of input means exit (no wait for the 3 s parent-PID poll).
      const gone = await waitGone(serverPid, 5000);
      t.diagnostic(`nvim run ${run.ms} ms; server gone ${gone} ms after nvim was killed`);
    } finally {
      rmSync(run.scratch, { recursive: true, force: true });
    }
  });
});
