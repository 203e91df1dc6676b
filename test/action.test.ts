import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseText } from '../server/src/engine/parse';
import { isObject, type JsonObject } from '../server/src/engine/model';
import { HOMEPAGE } from '../server/src/engine/docs-url';

const ROOT = join(__dirname, '..');

function loadYaml(name: string): unknown {
  const parsed = parseText(readFileSync(join(ROOT, name), 'utf8'), 'yaml');
  assert.deepEqual(parsed.problems, [], `${name} parses cleanly`);
  return parsed.docs[0].data;
}

test('action.yml: a composite action with the documented inputs', () => {
  const action = loadYaml('action.yml') as JsonObject;
  assert.ok(typeof action.name === 'string' && typeof action.description === 'string');
  const inputs = action.inputs as Record<string, JsonObject>;
  assert.deepEqual(Object.keys(inputs).sort(), ['args', 'config', 'paths', 'sarif', 'version']);
  for (const [k, v] of Object.entries(inputs)) assert.ok(typeof v.description === 'string' && v.description, `input ${k} has a description`);
  assert.equal(inputs.paths.default, '.');
  assert.equal(inputs.sarif.default, 'true');
  assert.equal(inputs.version.default, '');
  assert.equal((action.runs as JsonObject).using, 'composite');
});

test('action.yml: lint to SARIF without failing, upload, annotate, then exit with the code', () => {
  const action = loadYaml('action.yml') as JsonObject;
  const steps = (action.runs as JsonObject).steps as JsonObject[];
  assert.ok(steps.every(isObject));
  for (const s of steps) if (typeof s.run === 'string') assert.equal(s.shell, 'bash', `${s.name} sets its shell (composite actions need one)`);
  const at = (pred: (s: JsonObject) => boolean, what: string): number => {
    const i = steps.findIndex(pred);
    assert.ok(i >= 0, `a step that ${what}`);
    return i;
  };
  const node = at((s) => s.uses === 'actions/setup-node@v4', 'sets up Node');
  assert.equal((steps[node].with as JsonObject)['node-version'], 20);
  const build = at((s) => typeof s.run === 'string' && s.run.includes('npm ci') && s.run.includes('npm run build'), 'builds the checkout');
  assert.equal(steps[build].if, "inputs.version == ''");
  assert.equal(steps[build]['working-directory'], '${{ github.action_path }}');

  const lint = at((s) => s.id === 'lint', 'lints');
  const run = steps[lint].run as string;
  assert.match(run, /--format sarif --output mcp-tool-lint\.sarif/);
  assert.match(run, /npx --yes "mcp-tool-lint@\$INPUT_VERSION"/);
  assert.match(run, /\$ACTION_PATH\/bin\/mcp-tool-lint\.js/);
  // The code is captured, not acted on: `set +e` before the run, written to the step's outputs.
  assert.ok(run.indexOf('set +e') >= 0 && run.indexOf('set +e') < run.indexOf('--format sarif'));
  assert.match(run, /echo "exit-code=\$\?" >> "\$GITHUB_OUTPUT"/);
  // Inputs reach the script through the environment, never pasted into it.
  assert.doesNotMatch(run, /\$\{\{/);
  assert.deepEqual(Object.keys(steps[lint].env as JsonObject).sort(), ['ACTION_PATH', 'INPUT_ARGS', 'INPUT_CONFIG', 'INPUT_PATHS', 'INPUT_VERSION']);

  const upload = at((s) => s.uses === 'github/codeql-action/upload-sarif@v3', 'uploads SARIF');
  assert.match(String(steps[upload].if), /always\(\)/);
  assert.match(String(steps[upload].if), /inputs\.sarif == 'true'/);
  assert.equal((steps[upload].with as JsonObject).sarif_file, 'mcp-tool-lint.sarif');

  const annotate = at((s) => typeof s.run === 'string' && s.run.includes('--format github'), 'prints annotations');
  assert.match(String(steps[annotate].if), /always\(\)/);

  const exit = steps.length - 1;
  assert.match(String(steps[exit].run), /exit "\$\{EXIT_CODE:-2\}"/);
  assert.equal((steps[exit].env as JsonObject).EXIT_CODE, '${{ steps.lint.outputs.exit-code }}');
  assert.match(String(steps[exit].if), /always\(\)/);
  assert.ok(node < build && build < lint && lint < upload && upload < annotate && annotate < exit, 'steps in order');
});

test('.pre-commit-hooks.yaml: one node hook that passes the staged tool files', () => {
  const hooks = loadYaml('.pre-commit-hooks.yaml') as JsonObject[];
  assert.equal(hooks.length, 1);
  const h = hooks[0];
  assert.equal(h.id, 'mcp-tool-lint');
  assert.equal(h.language, 'node');
  assert.equal(h.entry, 'mcp-tool-lint');
  assert.equal(h.pass_filenames, true);
  const files = new RegExp(String(h.files));
  for (const f of ['tools.yaml', 'a.yml', 'b.json', '__snapshots__/x.snap']) assert.ok(files.test(f), f);
  for (const f of ['a.ts', 'yaml.md']) assert.ok(!files.test(f), f);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.ok(pkg.bin[h.entry as string], 'the entry is the package binary');
});

test('the README example uses the action by the repository name', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const repo = HOMEPAGE.replace('https://github.com/', '');
  assert.ok(readme.includes(`uses: ${repo}@v1`), `README shows \`uses: ${repo}@v1\``);
  assert.ok(readme.includes(`repo: ${HOMEPAGE}`), 'README shows the pre-commit repo');
});
