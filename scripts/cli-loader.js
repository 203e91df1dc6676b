// The CLI entry (`dist/cli.js`): loads the bundle `dist/cli-main.js` with a V8 code cache.
//
// Compiling the 1.2 MB bundle and then its hot functions costs a run 30–50 ms before any work
// (about a tenth of a small run). The compiled code is kept in the user's cache folder
// (`$XDG_CACHE_HOME/mcp-tool-lint`, else `~/.cache/mcp-tool-lint`), one file per bundle, and used
// only when that folder belongs to the user and is closed to others: the cache holds code that
// runs, so nobody else may be able to write it. V8 checks the cache against the source and drops
// it on any mismatch. Set MCP_TOOL_LINT_NO_CACHE=1 to skip it. Any failure here falls back to a
// plain `require`: the cache can only make a run faster, never break it.
// The fast answers to `--version` and `--help` are put in first by scripts/build.mjs.
'use strict';
__FAST_PATH__;
const fs = require('node:fs');
const path = require('node:path');
const MAIN = path.join(__dirname, 'cli-main.js');

function debug(what) {
  if (process.env.MCP_TOOL_LINT_DEBUG) process.stderr.write(`mcp-tool-lint: code cache ${what}\n`);
}

function cacheDir() {
  if (process.env.MCP_TOOL_LINT_NO_CACHE) return null;
  const home = require('node:os').homedir();
  const base = process.env.XDG_CACHE_HOME || (home ? path.join(home, '.cache') : '');
  if (!base || !path.isAbsolute(base)) return null;
  const dir = path.join(base, 'mcp-tool-lint');
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.statSync(dir);
    const uid = typeof process.getuid === 'function' ? process.getuid() : null;
    if (uid !== null && (st.uid !== uid || (st.mode & 0o022) !== 0)) {
      debug('off (the cache folder is not closed to other users)');
      return null;
    }
    return dir;
  } catch {
    return null;
  }
}

/** The bundle compiled with the cached code, or null (then it is simply required). */
function compile() {
  const dir = cacheDir();
  if (!dir) return null;
  const source = fs.readFileSync(MAIN, 'utf8');
  const vm = require('node:vm');
  // V8 checks a cache against the source's length only, so the name also carries the bundle's
  // content hash (taken at build time) and modification time: a changed bundle never meets old code.
  const mtime = Math.floor(fs.statSync(MAIN).mtimeMs);
  const stamp = `${__VERSION__}-${__BUNDLE_HASH__}-${mtime}-${process.version}-${process.arch}`;
  const file = path.join(dir, `cli-${stamp}.v8cache`);
  let cachedData;
  try {
    cachedData = fs.readFileSync(file);
  } catch {
    cachedData = undefined;
  }
  const wrapper = '(function (exports, require, module, __filename, __dirname) {' + source + '\n})';
  const script = new vm.Script(wrapper, { filename: MAIN, cachedData });
  const fn = script.runInThisContext();
  debug(cachedData === undefined ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit');
  if (cachedData === undefined || script.cachedDataRejected) {
    // Written after the run, so it also holds the functions the run compiled; atomically, so a
    // run in parallel never reads half a file.
    process.once('exit', () => {
      try {
        const tmp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(tmp, file);
        // Caches of other bundles (older versions and builds) are of no more use.
        for (const name of fs.readdirSync(dir)) {
          if (name.startsWith('cli-') && name.endsWith('.v8cache') && path.join(dir, name) !== file) fs.rmSync(path.join(dir, name), { force: true });
        }
      } catch {
        // No cache this time.
      }
    });
  }
  return fn;
}

let fn = null;
try {
  fn = compile();
} catch (e) {
  debug(`off (${e && e.message})`);
}
let main;
if (fn) {
  const mod = { exports: {}, filename: MAIN, id: MAIN, loaded: false };
  fn.call(mod.exports, mod.exports, require, mod, MAIN, __dirname);
  mod.loaded = true;
  main = mod.exports;
} else main = require(MAIN);
module.exports = main;
if (require.main === module) main.run();
