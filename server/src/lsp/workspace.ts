/**
 * The workspace as the language server sees it: tool and eval files indexed from disk at start-up,
 * overridden by open documents, forming one catalogue. Parsed files are cached per
 * (uri, version); lint results per catalogue generation; tool-rule results per tool content.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import picomatch from 'picomatch';
import { defaultConfig, findConfigFile, loadConfigFile, ruleSettings, type Config, type RawRules, type RuleSetting } from '../engine/config';
import type { FileResult } from '../engine/diagnostic';
import { DEFAULT_MAX_BYTES, loadBytes, loadText } from '../engine/load';
import { reloadEdited } from '../engine/load/incremental';
import { buildCatalog, type Catalog, type SourceFile } from '../engine/model';
import { lint, ToolResultCache } from '../engine/runner';
import { getRule } from '../engine/rules';
import { collectFiles } from '../node/files';
import { DEFAULT_SETTINGS, type Settings } from './settings';
import { pathToUri, uriToPath } from './uri';

export interface Logger {
  log(msg: string): void;
  error(msg: string): void;
}

interface Entry {
  uri: string;
  file: SourceFile;
  /** Open in the editor (else read from disk). */
  open: boolean;
}

export class Workspace {
  private entries = new Map<string, Entry>();

  private put(e: Entry): void {
    this.entries.set(e.uri, e);
    this.uriByFile.set(e.file, e.uri);
  }
  private generation = 0;
  private catalogCache: { gen: number; catalog: Catalog } | null = null;
  private results = new Map<string, { gen: number; result: FileResult | null }>();
  private configs = new Map<string, Config | null>();
  readonly cache = new ToolResultCache();
  settingsFor: (uri: string) => Settings = () => DEFAULT_SETTINGS;

  constructor(private readonly logger: Logger) {}

  get gen(): number {
    return this.generation;
  }

  /** Index the tool and eval files under a folder (nothing is executed; only YAML/JSON is read). */
  indexFolder(root: string): number {
    let n = 0;
    let found;
    try {
      found = collectFiles([root], root, () => false);
    } catch {
      return 0;
    }
    for (const f of found) {
      const uri = pathToUri(f.abs);
      if (this.entries.get(uri)?.open) continue;
      const file = this.readDisk(f.abs, uri);
      if (!file || (file.kind === 'unknown' && !this.forcedToolFile(uri))) continue;
      this.put({ uri, file, open: false });
      n++;
    }
    this.bump();
    return n;
  }

  private readDisk(abs: string, uri: string): SourceFile | null {
    try {
      const size = statSync(abs).size;
      const max = this.configFor(uri)?.maxFileSize ?? DEFAULT_MAX_BYTES;
      return size > max ? loadBytes(displayPath(uri), new Uint8Array(size), { maxBytes: max }) : loadBytes(displayPath(uri), readFileSync(abs), { maxBytes: max });
    } catch (e) {
      this.logger.error(`cannot read ${abs}: ${(e as Error).message}`);
      return null;
    }
  }

  private forcedToolFile(uri: string): boolean {
    const globs = this.settingsFor(uri).toolFiles;
    if (globs.length === 0) return false;
    const p = uriToPath(uri) ?? uri;
    return globs.some((g) => picomatch(g, { dot: true, basename: !g.includes('/') })(p) || picomatch(g, { dot: true, contains: true })(p));
  }

  open(uri: string, text: string, version: number): void {
    this.setText(uri, text, version, true);
  }

  change(uri: string, text: string, version: number): void {
    this.setText(uri, text, version, true);
  }

  private setText(uri: string, text: string, version: number, open: boolean): void {
    const prev = this.entries.get(uri);
    if (prev && prev.file.version === version && prev.file.text === (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)) {
      prev.open = open;
      return;
    }
    const file = (prev && this.reloaded(prev.file, text, version, uri)) || loadText(displayPath(uri), text, { version, explicit: false });
    this.put({ uri, file, open });
    this.bump();
  }

  /** How many edits were re-read incrementally (for tests and the bench). */
  incrementalReads = 0;

  /** The file re-read by re-parsing only the edited tool, when that gives the same file (see `reloadEdited`). */
  private reloaded(prev: SourceFile, raw: string, version: number, uri: string): SourceFile | null {
    const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    if ((raw !== text) !== prev.bom) return null;
    if (text.length > (this.configFor(uri)?.maxFileSize ?? DEFAULT_MAX_BYTES)) return null;
    const file = reloadEdited(prev, text, version);
    if (file) this.incrementalReads++;
    return file;
  }

  /** A document was closed: fall back to the file on disk (or forget it). */
  close(uri: string): void {
    const e = this.entries.get(uri);
    if (!e) return;
    const abs = uriToPath(uri);
    // A document that was never saved has no file to fall back to: forget it quietly.
    const disk = abs && existsSync(abs) ? this.readDisk(abs, uri) : null;
    if (disk && (disk.kind !== 'unknown' || this.forcedToolFile(uri))) this.put({ uri, file: disk, open: false });
    else this.entries.delete(uri);
    this.bump();
  }

  /** A file changed, appeared or disappeared on disk. */
  diskChanged(uri: string, deleted: boolean): void {
    const e = this.entries.get(uri);
    if (e?.open) return;
    if (deleted) {
      if (this.entries.delete(uri)) this.bump();
      this.configs.clear();
      return;
    }
    const abs = uriToPath(uri);
    if (!abs) return;
    if (/\.mcp-tool-lint\.(ya?ml|json)$/.test(abs)) {
      this.configs.clear();
      this.bump();
      return;
    }
    const file = this.readDisk(abs, uri);
    if (file && (file.kind !== 'unknown' || this.forcedToolFile(uri))) this.put({ uri, file, open: false });
    else this.entries.delete(uri);
    this.bump();
  }

  /** Settings or config changed: everything must be re-linted. */
  invalidate(): void {
    this.configs.clear();
    this.bump();
  }

  private bump(): void {
    this.generation++;
  }

  /** Every node of every file in place (see `SNode.lag`): before editor features read trees. */
  settle(): void {
    for (const e of this.entries.values()) e.file.settle();
  }

  file(uri: string): SourceFile | undefined {
    return this.entries.get(uri)?.file;
  }

  isOpen(uri: string): boolean {
    return !!this.entries.get(uri)?.open;
  }

  openUris(): string[] {
    return [...this.entries.values()].filter((e) => e.open).map((e) => e.uri);
  }

  private uriByFile = new WeakMap<SourceFile, string>();

  uriOf(file: SourceFile): string | undefined {
    return this.uriByFile.get(file);
  }

  /** Whether the document gets diagnostics and features: a tool or eval file (or forced by settings). */
  isToolDocument(uri: string): boolean {
    const f = this.file(uri);
    if (!f || !this.settingsFor(uri).enable) return false;
    return f.kind !== 'unknown' || this.forcedToolFile(uri);
  }

  catalog(): Catalog {
    if (this.catalogCache?.gen === this.generation) return this.catalogCache.catalog;
    const files = [...this.entries.values()].filter((e) => e.file.kind !== 'unknown' || e.open).map((e) => e.file);
    const catalog = buildCatalog(files);
    this.catalogCache = { gen: this.generation, catalog };
    return catalog;
  }

  configFor(uri: string): Config | null {
    const abs = uriToPath(uri);
    if (!abs) return null;
    const dir = dirname(abs);
    if (this.configs.has(dir)) return this.configs.get(dir)!;
    let cfg: Config | null = null;
    try {
      const p = findConfigFile(dir);
      cfg = p ? loadConfigFile(p) : null;
    } catch (e) {
      this.logger.error(`mcp-tool-lint: ${(e as Error).message}`);
      cfg = null;
    }
    this.configs.set(dir, cfg);
    return cfg;
  }

  ruleSettingsFor(file: SourceFile): Map<string, RuleSetting> {
    const uri = this.uriOf(file) ?? '';
    const abs = uriToPath(uri);
    const cfg = this.configFor(uri) ?? defaultConfig(abs ? dirname(abs) : process.cwd());
    const overrides: RawRules = {};
    for (const [id, sev] of Object.entries(this.settingsFor(uri).rules)) if (getRule(id)) overrides[id] = { severity: sev };
    return ruleSettings(cfg, abs, overrides);
  }

  /** Lint result of one document against the whole catalogue (cached per generation). */
  lintResult(uri: string): FileResult | null {
    const hit = this.results.get(uri);
    if (hit && hit.gen === this.generation) return hit.result;
    const file = this.file(uri);
    let result: FileResult | null = null;
    if (file && this.isToolDocument(uri)) {
      const catalog = this.catalog();
      if (!catalog.files.includes(file)) catalog.files.push(file);
      const settings = new Map<SourceFile, Map<string, RuleSetting>>();
      const res = lint(catalog.files, {
        settingsFor: (f) => {
          let s = settings.get(f);
          if (!s) settings.set(f, (s = this.ruleSettingsFor(f)));
          return s;
        },
        only: new Set([file]),
        cache: this.cache,
      });
      for (const m of res.internalErrors) this.logger.error(`mcp-tool-lint: ${m}`);
      result = res.results.find((r) => r.file === file) ?? null;
    }
    this.results.set(uri, { gen: this.generation, result });
    return result;
  }

  get size(): { files: number; tools: number } {
    const c = this.catalog();
    return { files: c.files.filter((f) => f.kind !== 'unknown').length, tools: c.tools.length };
  }
}

function displayPath(uri: string): string {
  return uriToPath(uri) ?? uri;
}
