/**
 * A real VS Code for end-to-end tests: code-server on loopback with the packaged .vsix installed,
 * driven in headless Chromium by Playwright (see shared/recipes/real-clients.md). Everything it
 * writes goes to one scratch folder, removed by `dispose`; processes are stopped by PID tree.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const ROOT = join(__dirname, '..', '..');

export interface Tools {
  chromium: string;
  node: string;
  codeServer: string;
  cache: string;
}

/** Installs (or finds in the cache) Chromium, Node 24 and code-server. A string is a reason to skip. */
export function setupTools(): Tools | string {
  const r = spawnSync('bash', [join(ROOT, 'scripts/e2e/setup-vscode.sh')], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status === 3) return 'Chromium is not installed and this user cannot install it (run scripts/e2e/setup-vscode.sh as root)';
  if (r.status !== 0) throw new Error(`scripts/e2e/setup-vscode.sh failed with ${r.status ?? r.signal}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as Tools;
}

/** Polls `check` until it returns a truthy value; never sleeps a fixed time for a state. */
export async function until<T>(what: string, check: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Every descendant of `pid`, read from /proc before anything is stopped (orphans get re-parented). */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields start after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // The process ended while we looked.
    }
  }
  const out: number[] = [];
  const visit = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      visit(c);
    }
  };
  visit(pid);
  return out;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Ends a process and all its descendants, by PID: SIGTERM, then SIGKILL for what is left. */
export async function stopTree(pid: number): Promise<void> {
  const pids = [pid, ...processTree(pid)];
  for (const p of pids) {
    try {
      process.kill(p, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  try {
    await until('processes to end', () => pids.every((p) => !alive(p)), 5000);
  } catch {
    for (const p of pids) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

export interface Session {
  page: Page;
  workspace: string;
  /** code-server's own log, for failure messages. */
  log(): string;
  /** Command lines of code-server's process tree (the extension host, language servers…). */
  processes(): string[];
  /** The editor's log files whose names match, newest content last (output channels included). */
  logs(name: RegExp): string;
  dispose(): Promise<void>;
}

/**
 * Starts code-server with a fresh profile, the .vsix installed and a copy of `fixture` as the
 * workspace, and opens it in Chromium.
 */
export async function openVsCode(tools: Tools, vsix: string, fixture: string, scratch: string): Promise<Session> {
  const data = join(scratch, 'user-data');
  const exts = join(scratch, 'extensions');
  const workspace = join(scratch, 'workspace');
  const xdg = join(scratch, 'xdg');
  const tmp = join(scratch, 'tmp');
  for (const d of [data, exts, xdg, tmp]) mkdirSync(d, { recursive: true });
  cpSync(fixture, workspace, { recursive: true });
  mkdirSync(join(data, 'User'), { recursive: true });
  writeFileSync(
    join(data, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'workbench.colorTheme': 'Default Dark Modern',
        'security.workspace.trust.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'update.mode': 'none',
        'chat.disableAIFeatures': true,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'extensions.ignoreRecommendations': true,
        'editor.minimap.enabled': false,
        'editor.hover.delay': 200,
        'editor.fontSize': 14,
        'window.restoreWindows': 'none',
        'files.autoSave': 'off',
      },
      null,
      2,
    ),
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: dirname(tools.node) + delimiter + (process.env.PATH ?? ''),
    XDG_CONFIG_HOME: join(xdg, 'config'),
    XDG_DATA_HOME: join(xdg, 'data'),
    XDG_CACHE_HOME: join(xdg, 'cache'),
    XDG_STATE_HOME: join(xdg, 'state'),
    // code-server's IPC and git sockets, Chromium's temporary files: all inside the scratch folder.
    TMPDIR: tmp,
    // No npm or node settings of the test run leak into the editor's processes.
    NODE_OPTIONS: '',
    // No extension gallery: the machine must not reach out, and the test needs none.
    EXTENSIONS_GALLERY: '{}',
  };
  const base = ['--user-data-dir', data, '--extensions-dir', exts];
  const inst = spawnSync(tools.node, [tools.codeServer, ...base, '--install-extension', vsix], { env, encoding: 'utf8' });
  if (inst.status !== 0) throw new Error(`installing the .vsix failed:\n${inst.stdout}\n${inst.stderr}`);

  const port = await freePort();
  const config = join(scratch, 'code-server.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  let log = '';
  const server: ChildProcess = spawn(
    tools.node,
    [tools.codeServer, '--config', config, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', ...base, workspace],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  server.stdout!.on('data', (b) => (log += b));
  server.stderr!.on('data', (b) => (log += b));
  const serverExit = new Promise<void>((resolve) => server.once('exit', () => resolve()));

  let context: BrowserContext | undefined;
  const dispose = async () => {
    await context?.close().catch(() => undefined);
    if (server.pid && server.exitCode === null) await stopTree(server.pid);
    await Promise.race([serverExit, new Promise((r) => setTimeout(r, 2000))]);
  };
  try {
    const url = `http://127.0.0.1:${port}`;
    await until('code-server to answer /healthz', async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok, 30_000);
    context = await chromium.launchPersistentContext(join(scratch, 'chromium'), {
      executablePath: tools.chromium,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 800 },
      env: { ...env },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const processes = () =>
      processTree(server.pid!).flatMap((p) => {
        try {
          return [readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ').trim()];
        } catch {
          return [];
        }
      });
    return { page, workspace, log: () => log, processes, logs: (name) => readLogs(join(data, 'logs'), name), dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

function readLogs(dir: string, name: RegExp): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, n.name);
      if (n.isDirectory()) walk(p);
      else if (name.test(n.name)) out.push(`--- ${n.name}\n${readFileSync(p, 'utf8')}`);
    }
  };
  try {
    walk(dir);
  } catch {
    // No logs yet.
  }
  return out.join('\n');
}

/** Packs the extension with `npm run package` into `dir`. */
export function packageVsix(dir: string): string {
  const out = join(dir, 'mcp-tool-lint.vsix');
  const r = spawnSync('npm', ['run', '--silent', 'package', '--', '-o', out], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run package failed:\n${r.stdout}\n${r.stderr}`);
  return out;
}

export function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), 'mcp-tool-lint-e2e-'));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
