/** Shared by the live-server tests: lint a live answer with the default config, snapshots, PIDs. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig, ruleSettings } from '../../server/src/engine/config';
import type { SourceFile } from '../../server/src/engine/model';
import { lint } from '../../server/src/engine/runner';
import { alive } from '../../server/src/node/live';

export const ROOT = join(__dirname, '..', '..');
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'live');
const SNAPSHOTS = join(ROOT, 'test', 'snapshots', 'live');

export const node = JSON.stringify(process.execPath);
export const pkgBin = (pkg: string) => JSON.stringify(join(ROOT, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js'));

export interface Finding {
  rule: string;
  severity: string;
  tool: string | null;
  parameter: string | null;
  message: string;
}

/** Lint one file with the default config; every range must lie in the file's text. */
export function lintFindings(file: SourceFile): Finding[] {
  const r = lint([file], { settingsFor: () => ruleSettings(defaultConfig(ROOT), null) });
  assert.deepEqual(r.internalErrors, []);
  const fr = r.results.find((x) => x.file === file);
  assert.ok(fr, 'the live file has a result');
  for (const d of fr.diagnostics) assert.ok(d.offset >= 0 && d.offset + d.length <= file.text.length, `${d.rule}: range outside the text`);
  return fr.diagnostics.map((d) => ({ rule: d.rule, severity: d.severity, tool: d.tool, parameter: d.parameter, message: d.message }));
}

/** Compare with test/snapshots/live/NAME.json; a missing one is written, UPDATE_SNAPSHOTS=1 rewrites. */
export function matchSnapshot(name: string, value: unknown): void {
  const file = join(SNAPSHOTS, `${name}.json`);
  const actual = JSON.stringify(value, null, 2) + '\n';
  if (process.env.UPDATE_SNAPSHOTS || !existsSync(file)) {
    mkdirSync(SNAPSHOTS, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  assert.deepEqual(JSON.parse(actual), JSON.parse(readFileSync(file, 'utf8')), `snapshot ${name} differs; UPDATE_SNAPSHOTS=1 npm test -- live to accept`);
}

/** Poll until the process is gone (a killed process may take a moment to be reaped). */
export async function gone(pid: number, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/** Start the HTTP fixture; resolves with its URL once it prints its port. */
export function startHttpFixture(script: string, args: string[]): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [join(FIXTURES, script), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${err}`)), 10_000);
    proc.stderr!.on('data', (d) => (err += d));
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /PORT=(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${m[1]}/mcp`, proc });
      }
    });
    proc.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${err}`)));
  });
}
