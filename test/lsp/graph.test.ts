import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildGraph } from '../../server/src/engine/graph';
import { loadText } from '../../server/src/engine/load';
import type { EditorGraph } from '../../server/src/lsp/graph';
import { startClient, type TestClient } from '../helpers/lsp';

const RECIPES = `tools:
  - name: list_recipes
    description: List recipes. Use it to find a recipe_id.
    inputSchema: {type: object, properties: {}}
  - name: create_recipe
    description: Create a recipe. Returns its recipe_id.
    inputSchema:
      type: object
      properties:
        title: {type: string, description: Recipe title.}
      required: [title]
`;

/** JSON, so a name's range must leave out its quotes. */
const PLANS = JSON.stringify(
  {
    tools: [
      { name: 'list_meal_plans', description: 'List meal plans. Use it to find a meal_plan_id.', inputSchema: { type: 'object', properties: {} } },
      {
        name: 'add_recipe_to_meal_plan',
        description: 'Put a recipe on a meal plan.',
        inputSchema: {
          type: 'object',
          properties: {
            meal_plan_id: { type: 'string', description: 'The plan, from list_meal_plans.' },
            recipe_id: { type: 'string', description: 'The recipe, from list_recipes or create_recipe.' },
          },
          required: ['meal_plan_id', 'recipe_id'],
        },
      },
      {
        name: 'get_shopping_list',
        description: 'Get the shopping list of a meal plan.',
        inputSchema: { type: 'object', properties: { meal_plan_id: { type: 'string', description: 'The plan, from list_meal_plans.' } } },
      },
    ],
  },
  null,
  2,
);

/** Another server (folder): its tools never link to the recipe service's. */
const OTHER = `tools:
  - name: list_recipes
    description: List the recipes of another service.
    inputSchema: {type: object, properties: {}}
`;

const FILES = { 'recipes/recipes.tools.yaml': RECIPES, 'recipes/plans.json': PLANS, 'other/tools.yaml': OTHER };

/** The text a location covers, read from the files as written. */
function textAt(c: TestClient, graph: EditorGraph, id: string): string {
  const node = graph.nodes.find((n) => n.id === id);
  assert.ok(node?.location, `${id} has a location`);
  const rel = Object.keys(FILES).find((k) => c.uri(k) === node.location!.uri);
  assert.ok(rel, `${node.location.uri} is one of the workspace's files`);
  const { start, end } = node.location.range;
  assert.equal(start.line, end.line, 'a name is on one line');
  return FILES[rel as keyof typeof FILES].split('\n')[start.line].slice(start.character, end.character);
}

const edgeList = (g: EditorGraph) => g.edges.map((e) => `${e.from} -> ${e.to}: ${e.parameter}${e.required ? '' : ' (optional)'}`);

test('graph request: the workspace graph, as the engine builds it, with each tool name located', async () => {
  const c = await startClient({ files: FILES });
  try {
    const g = await c.request<EditorGraph>('mcpToolLint/graph', { uri: null });
    assert.equal(g.scope, 'workspace');
    assert.equal(g.uri, null);
    // Files in path order; a name used by two servers gets its folder in the id.
    assert.deepEqual(
      g.nodes.map((n) => n.id),
      [`list_recipes (${c.root}/other)`, 'list_meal_plans', 'add_recipe_to_meal_plan', 'get_shopping_list', `list_recipes (${c.root}/recipes)`, 'create_recipe'],
    );
    assert.deepEqual(edgeList(g), [
      'list_meal_plans -> add_recipe_to_meal_plan: meal_plan_id',
      `list_recipes (${c.root}/recipes) -> add_recipe_to_meal_plan: recipe_id`,
      'create_recipe -> add_recipe_to_meal_plan: recipe_id',
      'list_meal_plans -> get_shopping_list: meal_plan_id (optional)',
    ]);
    // The same nodes and edges as the CLI's `graph --format json` on the same files.
    const engine = buildGraph(['other/tools.yaml', 'recipes/plans.json', 'recipes/recipes.tools.yaml'].flatMap((rel) => loadText(`${c.root}/${rel}`, FILES[rel as keyof typeof FILES]).tools));
    assert.deepEqual(
      g.nodes.map(({ location: _l, ...n }) => n),
      engine.nodes,
    );
    assert.deepEqual(g.edges, engine.edges);
    // Every location covers exactly the tool's name, in YAML and in JSON (without the quotes).
    for (const n of g.nodes) assert.equal(textAt(c, g, n.id), n.name, n.id);
    const plans = g.nodes.find((n) => n.id === 'get_shopping_list')!;
    assert.equal(plans.location!.uri, c.uri('recipes/plans.json'));
    assert.equal(g.nodes.find((n) => n.id === `list_recipes (${c.root}/other)`)!.location!.uri, c.uri('other/tools.yaml'));
    // No parameters at all reads as the whole workspace too.
    assert.deepEqual(await c.request<EditorGraph>('mcpToolLint/graph', {}), g);
    assert.deepEqual(await c.request<EditorGraph>('mcpToolLint/graph', null), g);
  } finally {
    await c.dispose();
  }
});

test('graph request for a document: its tools and their direct neighbours, with the edges touching its tools', async () => {
  const c = await startClient({ files: FILES });
  try {
    const recipes = await c.request<EditorGraph>('mcpToolLint/graph', { uri: c.uri('recipes/recipes.tools.yaml') });
    assert.equal(recipes.scope, 'document');
    assert.equal(recipes.uri, c.uri('recipes/recipes.tools.yaml'));
    assert.deepEqual(
      recipes.nodes.map((n) => n.id),
      ['add_recipe_to_meal_plan', `list_recipes (${c.root}/recipes)`, 'create_recipe'],
    );
    assert.deepEqual(edgeList(recipes), [`list_recipes (${c.root}/recipes) -> add_recipe_to_meal_plan: recipe_id`, 'create_recipe -> add_recipe_to_meal_plan: recipe_id']);
    // The neighbour in the other file keeps its own location.
    assert.equal(textAt(c, recipes, 'add_recipe_to_meal_plan'), 'add_recipe_to_meal_plan');
    assert.equal(recipes.nodes[0].location!.uri, c.uri('recipes/plans.json'));

    // `list_meal_plans -> get_shopping_list` touches no recipe tool: only the plans' view has it.
    const plans = await c.request<EditorGraph>('mcpToolLint/graph', { uri: c.uri('recipes/plans.json') });
    assert.deepEqual(
      plans.nodes.map((n) => n.id),
      ['list_meal_plans', 'add_recipe_to_meal_plan', 'get_shopping_list', `list_recipes (${c.root}/recipes)`, 'create_recipe'],
    );
    assert.equal(plans.edges.length, 4);

    // A tool without edges is still drawn in its own document's view.
    const other = await c.request<EditorGraph>('mcpToolLint/graph', { uri: c.uri('other/tools.yaml') });
    assert.deepEqual(
      other.nodes.map((n) => n.id),
      [`list_recipes (${c.root}/other)`],
    );
    assert.deepEqual(other.edges, []);

    // A document the workspace does not know: nothing, still scoped to it.
    assert.deepEqual(await c.request<EditorGraph>('mcpToolLint/graph', { uri: c.uri('nowhere.yaml') }), { scope: 'document', uri: c.uri('nowhere.yaml'), nodes: [], edges: [] });
  } finally {
    await c.dispose();
  }
});

test('graph request: unsaved edits show at once, and locations follow the edited text', async () => {
  const c = await startClient({ files: FILES });
  try {
    const uri = c.uri('recipes/recipes.tools.yaml');
    await c.open('recipes/recipes.tools.yaml', RECIPES);
    const edited = `# Moved down by two lines.\n\n${RECIPES.replace('create_recipe', 'add_recipe')}`;
    await c.change('recipes/recipes.tools.yaml', edited, 2);
    const g = await c.request<EditorGraph>('mcpToolLint/graph', { uri });
    const add = g.nodes.find((n) => n.id === 'add_recipe');
    assert.ok(add, 'the renamed tool is a node');
    assert.equal(add.location!.range.start.line, 6);
    assert.equal(edited.split('\n')[6].slice(add.location!.range.start.character, add.location!.range.end.character), 'add_recipe');
    assert.ok(!g.nodes.some((n) => n.id === 'create_recipe'));
    // `add_recipe_to_meal_plan` names create_recipe, which is gone; list_recipes still feeds it.
    assert.deepEqual(edgeList(g), [`list_recipes (${c.root}/recipes) -> add_recipe_to_meal_plan: recipe_id`]);
  } finally {
    await c.dispose();
  }
});

test('graph request of an empty workspace', async () => {
  const c = await startClient();
  try {
    assert.deepEqual(await c.request<EditorGraph>('mcpToolLint/graph', { uri: null }), { scope: 'workspace', uri: null, nodes: [], edges: [] });
  } finally {
    await c.dispose();
  }
});
