/**
 * Linting a live MCP server: start it over stdio (`--server-command`) or connect over Streamable
 * HTTP (`--server-url`), list every tool (following `nextCursor`), and turn the list into a
 * `SourceFile` the engine lints like any other. The text is a pretty-printed `tools/list`-shaped
 * JSON document, so findings get ranges in it and it doubles as a snapshot file.
 *
 * Every step has a time-out; whatever happens, the transport is closed and the child process
 * (with anything it started) is ended before the promise settles.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ConfigError } from '../engine/config';
import { loadText } from '../engine/load';
import type { SourceFile } from '../engine/model';
import { DEFAULT_LIVE_TIMEOUT_MS } from './live-defaults';

function newClient(): Client {
  return new Client({ name: 'mcp-tool-lint', version: '0' }, { capabilities: {}, jsonSchemaValidator: NO_VALIDATION as never });
}

export { DEFAULT_LIVE_TIMEOUT_MS };
/** A server that pages forever (or repeats a cursor) must not keep us listing. */
const MAX_PAGES = 1000;
const STDERR_TAIL = 2000;

export interface LiveOptions {
  /** The command line of a stdio server: `CMD ARGS…`, split like a shell would (quotes, backslashes), never run through one. */
  command?: string;
  /** The endpoint of a Streamable HTTP server. */
  url?: string;
  /** HTTP headers (`--header K=V`), e.g. `Authorization`. */
  headers?: Record<string, string>;
  /** Time-out of the connection (initialize) and of each `tools/list` call. */
  timeoutMs?: number;
  cwd?: string;
  /** Environment of the child; defaults to this process's. */
  env?: Record<string, string>;
  /** Called with the child's PID once it is started (tests check that it is gone afterwards). */
  onSpawn?: (pid: number) => void;
}

export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
  [k: string]: unknown;
}

export interface LiveResult {
  tools: unknown[];
  serverInfo: ServerInfo;
  /** `live: <command>` or `live: <url>`. */
  source: string;
}

/**
 * A live server that cannot be reached, starts badly, times out or answers wrongly. A
 * `ConfigError` so the CLI reports it as a usage-level failure: exit 2, message on stderr.
 */
export class LiveError extends ConfigError {}

/** Split a command line into words: whitespace separates, '…' and "…" group, \ escapes. */
export function splitCommand(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else cur += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) cur += line[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
    }
  }
  if (quote) throw new LiveError(`--server-command: unterminated ${quote} quote in "${line}"`);
  if (has || cur) out.push(cur);
  return out;
}

/** Connect, list every tool, disconnect. Rejects with a `LiveError` naming the server and the cause. */
export async function fetchLiveTools(opts: LiveOptions): Promise<LiveResult> {
  if (!!opts.command === !!opts.url) throw new LiveError('give exactly one of --server-command and --server-url');
  const timeout = opts.timeoutMs ?? DEFAULT_LIVE_TIMEOUT_MS;
  return opts.command ? fetchStdio(opts.command, opts, timeout) : fetchHttp(opts.url!, opts, timeout);
}

async function fetchStdio(line: string, opts: LiveOptions, timeout: number): Promise<LiveResult> {
  const words = splitCommand(line);
  if (words.length === 0) throw new LiveError('--server-command is empty');
  const what = `server command "${line}"`;
  const transport = new StdioClientTransport({
    command: words[0],
    args: words.slice(1),
    cwd: opts.cwd,
    env: opts.env ?? (Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>),
    stderr: 'pipe',
  });
  // Keep the end of the server's stderr: it usually says why a server died at start.
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  let exited: string | null = null;
  const client = newClient();
  let pid: number | null = null;
  let ok = false;
  try {
    await withTimeout(transport.start(), timeout, 'start');
    // `Client.connect` would call start() again; a started transport is passed through a shim.
    pid = transport.pid;
    if (pid !== null) opts.onSpawn?.(pid);
    const proc = (transport as unknown as { _process?: import('node:child_process').ChildProcess })._process;
    proc?.once('exit', (code, signal) => {
      exited = signal ? `it was killed by ${signal}` : `it exited with code ${code}`;
    });
    const result = await listAll(client, startedTransport(transport), timeout);
    ok = true;
    return { ...result, source: `live: ${line}` };
  } catch (e) {
    // Give a dying server a moment to flush its stderr and exit, so the message can say why.
    await settle(() => exited !== null, 200);
    throw new LiveError(describe(what, e, timeout, exited, stderr));
  } finally {
    await endStdio(client, transport, pid, ok);
  }
}

async function fetchHttp(url: string, opts: LiveOptions, timeout: number): Promise<LiveResult> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new LiveError(`--server-url: "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new LiveError(`--server-url: "${url}" is not an http(s) URL`);
  const what = `server URL ${url}`;
  const transport = new StreamableHTTPClientTransport(parsed, { requestInit: { headers: opts.headers ?? {} } });
  const client = newClient();
  try {
    const result = await listAll(client, transport, timeout);
    return { ...result, source: `live: ${url}` };
  } catch (e) {
    throw new LiveError(describe(what, e, timeout, null, ''));
  } finally {
    // Ends the session on the server (DELETE), then the transport; neither may hang us.
    await withTimeout(transport.terminateSession().catch(() => undefined), 2000, 'close').catch(() => undefined);
    await withTimeout(client.close(), 2000, 'close').catch(() => undefined);
  }
}

async function listAll(client: Client, transport: Transport, timeout: number): Promise<Omit<LiveResult, 'source'>> {
  await withTimeout(client.connect(transport, { timeout }), timeout, 'initialize');
  const info = client.getServerVersion();
  const serverInfo: ServerInfo = { ...(info ?? {}), name: info?.name ?? 'server', version: info?.version ?? '' };
  const tools: unknown[] = [];
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let page = 0; ; page++) {
    if (page >= MAX_PAGES) throw new Error(`tools/list returned more than ${MAX_PAGES} pages`);
    const r = await withTimeout(client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, RAW, { timeout }), timeout, 'tools/list');
    if (!isObj(r) || !Array.isArray(r.tools)) throw new Error('tools/list answered without a `tools` array');
    tools.push(...r.tools);
    if (r.nextCursor !== undefined && r.nextCursor !== null && typeof r.nextCursor !== 'string') throw new Error('tools/list answered with a `nextCursor` that is not a string');
    if (!r.nextCursor) break;
    if (seen.has(r.nextCursor)) throw new Error(`tools/list repeated the cursor "${r.nextCursor}"`);
    seen.add(r.nextCursor);
    cursor = r.nextCursor;
  }
  return { tools, serverInfo };
}

/**
 * Tools are taken as the server sent them: the SDK's own result schema would refuse the very
 * mistakes the linter is there to report (an `inputSchema` without `type: object`, say).
 */
const RAW = { safeParse: (data: unknown) => ({ success: true as const, data: data as { tools?: unknown; nextCursor?: unknown } }) } as unknown as ZodLike;
type ZodLike = Parameters<Client['request']>[1];

/** The SDK would compile each tool's `outputSchema` with its own ajv at list time; listing needs no validation. */
const NO_VALIDATION = {
  getValidator: () => (input: unknown) => ({ valid: true as const, data: input, errorMessage: undefined }),
};

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The transport is already started (to learn the PID early); make `Client.connect`'s start() a no-op. */
function startedTransport(t: StdioClientTransport): Transport {
  return new Proxy(t, {
    get(target, prop, receiver) {
      if (prop === 'start') return async () => undefined;
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
    set(target, prop, value) {
      return Reflect.set(target, prop, value);
    },
  }) as Transport;
}

class TimeoutError extends Error {
  constructor(readonly step: string) {
    super(step);
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, step: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(step)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

function describe(what: string, e: unknown, timeout: number, exited: string | null, stderr: string): string {
  const err = e as Error & { code?: unknown };
  const code = err?.code;
  let cause: string;
  if (e instanceof TimeoutError) cause = `no answer to ${e.step} within ${timeout} ms`;
  else if (code === 'ENOENT') cause = 'the command was not found';
  else if (code === 'EACCES') cause = 'the command is not executable';
  // The SDK's own request time-out (ours normally fires first).
  else if (code === -32001) cause = `no answer within ${timeout} ms`;
  // Streamable HTTP errors carry the HTTP status as `code`.
  else if (code === 401 || code === 403) cause = `the server answered HTTP ${code} (does it need a --header, such as Authorization?)`;
  else if (err?.message === 'fetch failed') cause = `the connection failed${netCause(err) ? ` (${netCause(err)})` : ''}`;
  else cause = cleanMessage(err?.message ?? String(e));
  if (exited && !(e instanceof TimeoutError)) cause = `${exited} (${cause})`;
  const tail = stderr.trim().split('\n').slice(-5).join('\n  ');
  return `cannot list the tools of ${what}: ${cause}${tail ? `\n  server stderr:\n  ${tail}` : ''}`;
}

function cleanMessage(m: string): string {
  // The SDK prefixes protocol errors with "MCP error -32000: ".
  return m.replace(/^MCP error -?\d+:\s*/, '');
}

/** fetch hides the socket error (ECONNREFUSED, ENOTFOUND…) in `cause`. */
function netCause(e: Error): string | null {
  const c = (e as Error & { cause?: { code?: unknown; message?: unknown } }).cause;
  if (!c) return null;
  return typeof c.code === 'string' ? c.code : typeof c.message === 'string' ? c.message : null;
}

async function settle(done: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

/**
 * End the child and everything it started. On success the server first gets the end of its input
 * and a second to exit; then (or at once on failure) SIGTERM, and SIGKILL a second later.
 * Descendants are collected first, since a wrapper (`npx`, `sh -c`) may leave them orphaned.
 */
async function endStdio(client: Client, transport: StdioClientTransport, pid: number | null, polite: boolean): Promise<void> {
  const tree = pid !== null ? [pid, ...descendants(pid)] : [];
  if (pid !== null && polite) {
    // A well-behaved stdio server exits when its input ends.
    try {
      (transport as unknown as { _process?: import('node:child_process').ChildProcess })._process?.stdin?.end();
    } catch {
      /* already closed */
    }
    await settle(() => !alive(pid), 1000);
  }
  const left = [...new Set([...tree, ...(pid !== null ? descendants(pid) : [])])].filter(alive);
  if (left.length > 0) {
    signalAll(left, 'SIGTERM');
    await settle(() => !left.some(alive), 1000);
    signalAll(left.filter(alive), 'SIGKILL');
    await settle(() => !left.some(alive), 1000);
  }
  // The process is gone by now, so the SDK's close (which would wait 2 s per step) returns at once.
  await withTimeout(client.close().catch(() => undefined), 3000, 'close').catch(() => undefined);
  await withTimeout(transport.close().catch(() => undefined), 3000, 'close').catch(() => undefined);
}

function signalAll(pids: number[], sig: NodeJS.Signals): void {
  if (process.platform === 'win32') {
    if (pids[0] !== undefined) {
      try {
        execFileSync('taskkill', ['/T', '/F', '/PID', String(pids[0])], { stdio: 'ignore' });
      } catch {
        /* already gone */
      }
    }
    return;
  }
  for (const p of pids) {
    try {
      process.kill(p, sig);
    } catch {
      /* already gone */
    }
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie (exited, not yet reaped) counts as gone.
  if (process.platform === 'linux') {
    try {
      return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  }
  return true;
}

/** All processes below `pid` (children, grandchildren…), from /proc or `ps`. */
export function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  if (process.platform === 'linux') {
    for (const name of safeReaddir('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const m = /\) \S+ (\d+)/.exec(stat.slice(stat.lastIndexOf(')')));
        if (m) parent.set(Number(name), Number(m[1]));
      } catch {
        /* exited meanwhile */
      }
    }
  } else if (process.platform !== 'win32') {
    try {
      const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
      for (const l of out.split('\n')) {
        const m = /^\s*(\d+)\s+(\d+)/.exec(l);
        if (m) parent.set(Number(m[1]), Number(m[2]));
      }
    } catch {
      return [];
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift()!;
    for (const [c, pp] of parent) if (pp === p && !out.includes(c)) (out.push(c), queue.push(c));
  }
  return out;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The catalogue text: a `tools/list`-shaped document with where it came from. */
export function liveCatalogText(result: LiveResult): string {
  const server = { ...result.serverInfo, source: result.source };
  return JSON.stringify({ server, tools: result.tools }, null, 2) + '\n';
}

/** A display path that says the file is a live server's answer: `live:<name>.json`. */
export function livePath(result: LiveResult): string {
  const name = String(result.serverInfo.name || 'server').replace(/[^\w.@-]+/g, '-');
  return `live:${name}.json`;
}

/** The live answer as a `SourceFile` (explicit, so it is linted even if it held no tool). */
export function liveSourceFile(result: LiveResult): SourceFile {
  return loadText(livePath(result), liveCatalogText(result), { explicit: true });
}

/**
 * The async entry for the CLI: fetch and load. The caller lints the file with the rest of the
 * run (config from the working folder, since a live server has no place on disk).
 */
export async function lintLive(opts: LiveOptions): Promise<SourceFile[]> {
  return [liveSourceFile(await fetchLiveTools(opts))];
}
