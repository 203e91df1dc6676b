/**
 * Seeded generator of realistic YAML tool catalogues for the benchmarks: `tools:` lists of MCP
 * tools whose input schemas mix described and undescribed enums, ids, nested objects and arrays,
 * and a few server-managed fields, so every rule has work to do. Same seed, same bytes.
 *
 *   node --import tsx bench/generate.ts 2300        → .bench/tools-2300.yaml
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** mulberry32: a small, fast seeded generator, good enough to vary shapes (tests share it). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ENTITIES = ['customer', 'order', 'invoice', 'ticket', 'project', 'task', 'user', 'team', 'document', 'repository', 'issue', 'comment', 'shipment', 'product', 'payment', 'subscription', 'event', 'report', 'alert', 'deployment'];
const VERBS = ['list', 'get', 'create', 'update', 'delete', 'search', 'archive', 'assign', 'export', 'close'];
const WORDS = ['the', 'matching', 'records', 'for', 'a', 'given', 'account', 'returns', 'results', 'sorted', 'by', 'date', 'newest', 'first', 'use', 'this', 'to', 'find', 'an', 'identifier', 'before', 'calling', 'other', 'tools', 'optional', 'filter', 'limit', 'page', 'current', 'workspace', 'owner', 'status', 'value'];
const ENUMS: [string, string[]][] = [
  ['status', ['open', 'pending', 'closed', 'archived']],
  ['priority', ['low', 'medium', 'high', 'urgent']],
  ['sort', ['asc', 'desc']],
  ['region', ['us-east', 'eu-west', 'ap-south']],
  ['kind', ['A', 'B', 'C', 'X']],
  ['format', ['json', 'csv', 'pdf']],
];
const SCALARS = ['query', 'limit', 'offset', 'title', 'note', 'email', 'amount', 'currency', 'tag', 'reason', 'due_date', 'label'];
const SERVER_MANAGED = ['created_at', 'updated_at', 'tenant_id', 'created_by', 'id'];

export function generateCatalog(n: number, seed = 42): string {
  const r = prng(seed + n);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const sentence = (min: number, max: number): string => {
    const len = min + Math.floor(r() * (max - min + 1));
    const w: string[] = [];
    for (let i = 0; i < len; i++) w.push(pick(WORDS));
    const s = w.join(' ');
    return s[0].toUpperCase() + s.slice(1) + '.';
  };
  const out: string[] = [`# Generated catalogue of ${n} tools (seed ${seed}).`, 'tools:'];
  for (let t = 0; t < n; t++) {
    const entity = ENTITIES[t % ENTITIES.length];
    const verb = VERBS[Math.floor(t / ENTITIES.length) % VERBS.length];
    const name = `${verb}_${entity}${t >= ENTITIES.length * VERBS.length ? `_${Math.floor(t / (ENTITIES.length * VERBS.length))}` : ''}`;
    out.push(`  - name: ${name}`);
    if (r() < 0.95) out.push(`    description: ${sentence(8, 22)}`);
    if (r() < 0.4) {
      out.push('    annotations:');
      out.push(`      readOnlyHint: ${verb === 'list' || verb === 'get' || verb === 'search'}`);
      if (verb === 'delete') out.push('      destructiveHint: true');
    }
    out.push('    inputSchema:', '      type: object', '      properties:');
    const required: string[] = [];
    const used = new Set<string>();
    const add = (key: string, lines: string[]): void => {
      if (used.has(key)) return;
      used.add(key);
      out.push(`        ${key}:`, ...lines.map((l) => `          ${l}`));
    };
    if (verb !== 'list' && verb !== 'search' && verb !== 'create') {
      add(`${entity}_id`, ['type: string', `description: The ${entity} identifier; get it from list_${entity}.`]);
      required.push(`${entity}_id`);
    }
    const nProps = 2 + Math.floor(r() * 5);
    for (let i = 0; i < nProps; i++) {
      const roll = r();
      if (roll < 0.3) {
        const [key, values] = pick(ENUMS);
        const described = r() < 0.5;
        add(key, ['type: string', `enum: [${values.join(', ')}]`, ...(described ? [`description: One of ${values.join(', ')}; ${sentence(3, 8)}`] : r() < 0.5 ? [`description: ${sentence(3, 8)}`] : [])]);
      } else if (roll < 0.55) {
        const key = pick(SCALARS);
        const type = key === 'limit' || key === 'offset' || key === 'amount' ? 'integer' : 'string';
        add(key, [`type: ${type}`, ...(r() < 0.85 ? [`description: ${sentence(4, 12)}`] : []), ...(type === 'integer' && r() < 0.5 ? ['minimum: 0', 'maximum: 100'] : [])]);
        if (r() < 0.3) required.push(key);
      } else if (roll < 0.7) {
        add('tags', ['type: array', `description: ${sentence(3, 8)}`, 'items:', '  type: string', ...(r() < 0.5 ? ['minItems: 1'] : [])]);
      } else if (roll < 0.85) {
        add('filter', [
          'type: object',
          `description: ${sentence(3, 8)}`,
          'properties:',
          '  owner_id:',
          '    type: string',
          `    description: ${sentence(3, 8)}`,
          '  state:',
          '    type: string',
          '    enum: [active, inactive]',
          '  items:',
          '    type: array',
          '    items:',
          '      type: object',
          '      properties:',
          '        sku: { type: string, description: Product SKU. }',
          '        quantity: { type: integer, minimum: 1 }',
        ]);
      } else if (verb === 'create' || verb === 'update') {
        add(pick(SERVER_MANAGED), ['type: string', ...(r() < 0.5 ? [`description: ${sentence(3, 6)}`] : [])]);
      } else {
        add('page_token', ['type: string', 'description: Token from the previous page; omit for the first page.']);
      }
    }
    if (required.length) out.push(`      required: [${required.join(', ')}]`);
  }
  return out.join('\n') + '\n';
}

export function writeCatalog(n: number, dir = resolve('.bench')): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `tools-${n}.yaml`);
  writeFileSync(path, generateCatalog(n));
  return path;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  for (const a of process.argv.slice(2)) console.log(writeCatalog(Number(a)));
}
