/**
 * The synchronous evaluator against jsonata itself. Every expression of the shipped manifests and
 * of the starter template, and a set written to reach JSONata's corner cases (sequences and
 * singletons, `[]`, filters by index, grouping, scopes, lambdas, the built-in functions' argument
 * rules), is run by both on generated records; where the fast path gives a value it must be the
 * value jsonata gives, and where jsonata fails the fast path must leave the record to it.
 */
import { readFile } from 'node:fs/promises';
import jsonata from 'jsonata';
import { describe, expect, it } from 'vitest';
import { Expression, LATER, textOf } from './engine/expressions.js';
import { bool, distinctNames, text, timestamp } from './engine/run.js';
import type { CompiledManifest } from './manifest/compile.js';
import { compileManifestText, shippedManifests, SHIPPED_MANIFESTS_DIR } from './manifest/load.js';
import { ManifestFile } from './manifest/source-map.js';

/** A small seeded generator, so that a failure is the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every compiled expression reachable from a compiled manifest (templates' parts included). */
function expressionsOf(manifest: CompiledManifest): Expression[] {
  const found = new Set<Expression>();
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (value instanceof Expression) {
      found.add(value);
      return;
    }
    if (value instanceof ManifestFile) return;
    if (value instanceof Map) for (const v of value.values()) visit(v);
    else if (Array.isArray(value)) for (const v of value) visit(v);
    else for (const v of Object.values(value)) visit(v);
  };
  visit({ ...manifest, manifest: undefined });
  return [...found];
}

/** The field names an expression reads: the generated records use them, so mappings find data. */
function namesIn(source: string, into: Set<string>): void {
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null || node instanceof RegExp) return;
    const n = node as { type?: string; value?: unknown };
    if (n.type === 'name' && typeof n.value === 'string') into.add(n.value);
    for (const [k, v] of Object.entries(node)) if (k !== 'value' || typeof v === 'object') walk(v);
  };
  walk(jsonata(source).ast());
}

/** A random JSON value built of `names`: objects, lists, text (some of it numbers or booleans), numbers. */
function generate(next: () => number, names: string[], depth = 0): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const r = next();
  if (depth < 3 && r < 0.45) {
    const object: Record<string, unknown> = {};
    const n = 1 + Math.floor(next() * 6);
    for (let i = 0; i < n; i++) object[pick(names)] = generate(next, names, depth + 1);
    return object;
  }
  if (depth < 3 && r < 0.6) {
    const n = Math.floor(next() * 4);
    return Array.from({ length: n }, () => generate(next, names, depth + 1));
  }
  return pick<unknown>([
    'Ada',
    'ada',
    'ADA',
    '',
    '  ',
    'true',
    'False',
    '42',
    'https://h.example/scim/v2/Users/u-1',
    'https://h.example/scim/v2/Groups/g-2/',
    'user',
    'Group',
    'indirect',
    '2024-02-03T04:05:06Z',
    0,
    1,
    -2.5,
    1.1 + 2.2,
    true,
    false,
    null,
    ...names.slice(0, 8),
  ]);
}

/** A SCIM user or group, or a Redmine user, membership or project, as those servers write them. */
function realistic(next: () => number, i: number): Record<string, unknown> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const ent = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
  switch (i % 5) {
    case 0:
      return {
        id: `u-${i}`,
        userName: pick(['ada', 'Ada', `user${i}`]),
        displayName: `User ${i}`,
        active: pick([true, false, 'True']),
        meta: { created: '2023-04-05T06:07:08.000Z' },
        emails: [
          { value: `u${i}@home.example`, type: 'home' },
          { value: `u${i}@example.com`, primary: pick([true, 'true', false]) },
          ...(next() < 0.3 ? [`plain${i}@example.com`] : []),
        ],
        roles: pick([[{ value: 'Admin', primary: true }, 'reader'], [{ display: 'Ops' }], []]),
        entitlements: pick([[{ value: 'deploy' }], ['billing:read', { value: 'Billing:Read' }]]),
        groups: [{ value: `g-${i % 7}`, type: pick(['direct', 'Indirect']) }],
        [ent]: { employeeNumber: `E${i}`, department: 'Sales', manager: pick([{ value: 'u-1' }, 'u-2']) },
      };
    case 1:
      return {
        id: `g-${i}`,
        displayName: pick(['Admins', 'admins', `Group ${i}`]),
        members: [
          { value: `u-${i - 1}`, type: 'User' },
          { value: `g-${i - 5}`, $ref: `https://h.example/scim/v2/Groups/g-${i - 5}` },
          { value: `x-${i}` },
        ],
      };
    case 2:
      return {
        id: i,
        login: `login${i}`,
        firstname: 'Ada',
        lastname: 'Lovelace',
        mail: `a${i}@example.com`,
        admin: next() < 0.2,
        status: pick([1, 3]),
        created_on: '2024-01-02T03:04:05Z',
        last_login_on: pick([null, '2024-05-06T07:08:09Z']),
      };
    case 3:
      return {
        id: i,
        project: { id: i % 11, name: `P${i % 11}` },
        ...(next() < 0.5
          ? { user: { id: i % 13, name: 'Ada' } }
          : { group: { id: 100 + (i % 3), name: 'G' } }),
        roles: [
          { id: 3, name: 'Manager' },
          { id: 4, name: 'Developer', inherited: true },
        ],
      };
    default:
      return {
        id: i,
        name: `Project ${i}`,
        identifier: `p${i}`,
        is_public: next() < 0.5,
        inherit_members: next() < 0.5,
        status: pick([1, 5, 9]),
        ...(i > 4 ? { parent: { id: i - 5, name: 'Parent' } } : {}),
      };
  }
}

/** The functions a run binds, with a made-up but fixed `$index`, and the run's own helpers. */
function bindings(record: unknown): Record<string, unknown> {
  return {
    vars: {
      url: 'https://h.example/api',
      application_name: 'App',
      application_type: 'App',
      page_size: 50,
      entitlement_permission_types: ['Uncategorized'],
    },
    record,
    partition: { status: 1 },
    parent: { id: 7, name: 'Parent' },
    key: 'Admin',
    index: (name: unknown, key: unknown) => {
      if (key === undefined || key === null) return undefined;
      const k = textOf(key);
      // Values are longer than their key and long keys find nothing: a recursive walk (Redmine's
      // project tree) ends.
      if (k.length > 24) return undefined;
      const h = [...`${String(name)}/${k}`].reduce((a, c) => (a * 31 + c.charCodeAt(0)) >>> 0, 7);
      if (h % 4 === 0) return undefined;
      if (h % 4 === 1) return [{ roles: ['Manager', 'Reporter'], name: k }];
      if (h % 4 === 2) return [`${k}~one`, `${k}~two`];
      return [`${k}~one`];
    },
    timestamp,
    resource: (key: unknown) => (key === undefined ? undefined : `res/${textOf(key)}`),
    distinctNames,
    text,
    bool,
  };
}

/** A value written out so that undefined, null, lists and key order all show. */
function shown(value: unknown): string {
  const canon = (v: unknown): unknown => {
    if (v === undefined) return { undefined: true };
    if (typeof v === 'function') return { function: true };
    if (Array.isArray(v)) return { list: v.map(canon) };
    if (typeof v === 'object' && v !== null) {
      if ('_jsonata_lambda' in v || v.constructor?.name === 'Lambda' || v.constructor?.name === 'Regex')
        return { function: true };
      return { object: Object.keys(v).map((k) => [k, canon((v as Record<string, unknown>)[k])]) };
    }
    return v;
  };
  return JSON.stringify(canon(value));
}

interface Outcome {
  compared: number;
  settled: number;
  failedInJsonata: number;
}

/** Both evaluators on each input; the fast path's values must be jsonata's. */
async function compare(expression: Expression, inputs: unknown[]): Promise<Outcome> {
  const reference = jsonata(expression.source);
  const outcome: Outcome = { compared: 0, settled: 0, failedInJsonata: 0 };
  for (const input of inputs) {
    const b = bindings(input);
    const fast = expression.now(input, b);
    let expected: unknown;
    let failed = false;
    try {
      expected = await reference.evaluate(input, bindings(input));
    } catch {
      failed = true;
    }
    outcome.compared += 1;
    if (failed) {
      outcome.failedInJsonata += 1;
      // jsonata fails: the fast path must not have made up a value.
      expect(fast, `${expression.source} on ${JSON.stringify(input)}`).toBe(LATER);
      continue;
    }
    if (fast === LATER) continue;
    outcome.settled += 1;
    expect(shown(fast), `${expression.source}\non ${JSON.stringify(input)}`).toBe(shown(expected));
  }
  return outcome;
}

function compileOne(source: string): Expression {
  const file = new ManifestFile('corner-cases.yaml', source);
  const problems: never[] = [];
  const e = Expression.compile(source, { file, path: [], offset: 0 }, problems);
  expect(problems).toEqual([]);
  return e!;
}

const manifests = await Promise.all(
  shippedManifests().map(async (id) => ({
    id,
    compiled: compileManifestText(await readFile(`${SHIPPED_MANIFESTS_DIR}${id}.yaml`, 'utf8'), `${id}.yaml`),
  })),
);
const starter = compileManifestText(
  (await readFile(new URL('../../../templates/manifest/manifest.yaml', import.meta.url), 'utf8'))
    .replaceAll('__CONNECTOR_ID__', 'starter')
    .replaceAll('__DISPLAY_NAME__', 'Starter')
    .replaceAll('__SOURCE_TYPE__', 'Starter'),
  'manifest.yaml',
);

describe('the synchronous evaluator gives what jsonata gives', () => {
  const all = [...manifests, { id: 'starter template', compiled: starter }];

  it.each(all.map((m) => [m.id, m.compiled] as const))(
    'every expression of the %s manifest runs on the fast path',
    (_id, compiled) => {
      const slow = expressionsOf(compiled)
        .filter((e) => !e.isFieldPath && !e.isSynchronous)
        .map((e) => e.source);
      expect(slow).toEqual([]);
    },
  );

  it.each(all.map((m) => [m.id, m.compiled] as const))(
    'on records as the servers write them, each expression of the %s manifest settles and equals jsonata',
    async (_id, compiled) => {
      const next = random(11);
      const records = Array.from({ length: 60 }, (_, i) => realistic(next, i));
      for (const expression of expressionsOf(compiled)) {
        const outcome = await compare(expression, records);
        expect(outcome.compared).toBe(records.length);
        // What jsonata answers without failing, the fast path answers too.
        expect(outcome.settled, expression.source).toBe(outcome.compared - outcome.failedInJsonata);
      }
    },
  );

  it.each(all.map((m) => [m.id, m.compiled] as const))(
    'on generated records of any shape, each expression of the %s manifest equals jsonata where it settles',
    async (_id, compiled) => {
      const names = new Set<string>();
      const expressions = expressionsOf(compiled);
      for (const e of expressions) namesIn(e.source, names);
      const next = random(23);
      const records = Array.from({ length: 150 }, () => generate(next, [...names]));
      let settled = 0;
      for (const expression of expressions) settled += (await compare(expression, records)).settled;
      expect(settled).toBeGreaterThan(0);
    },
  );

  const corners = [
    // Paths, sequences and singletons.
    'a',
    'a.b',
    'a.b.c',
    'a[0]',
    'a[-1]',
    'a[1].b',
    'a.b[0]',
    '(a.b)[0]',
    'a[[0, 2]]',
    'a.b[]',
    'a[]',
    '[a.b]',
    '[a, b]',
    '[[a], b]',
    '[a][0]',
    '$.a',
    '$$.a',
    'a.$',
    'a.(b)',
    'a.[b]',
    'a.b.[c]',
    'a[b = "Ada"]',
    'a[b]',
    'a[$not(b)]',
    'a[b > 0]',
    'a[type = "user"].value',
    'a.b[c = true][0]',
    '$count(a)',
    '$count(a.b)',
    '$count(a[])',
    '$exists(a.b)',
    '$type(a)',
    '$type(a.b)',
    '$type(a[])',
    // Objects and grouping.
    '{"x": a, "y": b}',
    '{"x": a.b, "y": [a.b]}',
    'a{b: c}',
    'a.{"k": b}',
    '{a: b}',
    '{"1": a, "0": b}',
    '{"x": a, "x": b}',
    'a.{"x": b, "y": $}',
    '{"n": $count(a), "e": $exists(b)}',
    // Scopes, blocks, lambdas.
    '($x := a; $x)',
    '($x := a; ($x := b); $x)',
    '($x := a; $y := $x.b; [$x, $y])',
    '($f := function($v) { $v.b }; $f(a))',
    '($f := function($v) { $v ? $v & "!" : "none" }; a.$f(b))',
    '($r := function($n) { $n <= 0 ? 0 : $n + $r($n - 1) }; $r(4))',
    '($f := function($v) { a }; $f(1))',
    '$fn := 1',
    // Conditions and operators.
    'a ? b : c',
    'a ? b',
    'a ?? b ?? "none"',
    'a = b',
    'a != b',
    'a and b',
    'a or b',
    'a > b',
    'a < 1',
    'a & b',
    'a & 1.5',
    '"x" & a.b',
    'a + 1',
    'a * b',
    '-a',
    'a in b',
    '"Ada" in a',
    'a in ["Ada", "ada"]',
    // Built-in functions and their argument rules.
    '$lowercase(a)',
    '$uppercase(a)',
    '$lowercase(a.b)',
    '$trim(a)',
    '$substring(a, 1)',
    '$substring(a, -3, 2)',
    '$substring(a, 0, 0)',
    '$substring(a, -10)',
    '$substring("a😀b", 1, 1)',
    'a.$substring(1, 2)',
    '$string(a)',
    '$string(a, true)',
    '$string(3.0000000000000004)',
    '$not(a)',
    '$not(a.b)',
    '$boolean(a)',
    '$append(a, b)',
    '$append(a.b, "x")',
    '$distinct(a)',
    '$distinct(a.b)',
    '$distinct([a, a])',
    '$join(a, ",")',
    '$join(a.b)',
    '$lookup(a, "b")',
    '$lookup(a, b)',
    '$lookup({"1": "one", "undefined": "none"}, $string(a))',
    '$match(a, /a(d)/i)',
    '$match(a, /d/)[0].index',
    '$match(a, /(x)|(a)/i).groups',
    '$match(a, /a/i, 1)',
    '$text(a) ?? $text(b)',
    '$bool(a) = true',
    '$index("i", a)[0]',
    '$index("i", a).roles',
    '$distinctNames($append(a, b))',
    '$resource(a)',
    '$timestamp(a)',
    'a.$lowercase()',
    'a.$string()',
    '$count()',
    '$exists()',
    '$lowercase(1)',
    '$unknown(a)',
  ];

  it('compiles the corner cases to the fast path, except what it leaves to jsonata', () => {
    const slow = corners.filter((c) => !compileOne(c).isSynchronous);
    // `$unknown` names no function, `$fn := 1` binds a name that is also a jsonata built-in.
    expect(slow).toEqual(['$unknown(a)']);
  });

  it('gives what jsonata gives on the corner cases', async () => {
    const next = random(5);
    const names = ['a', 'b', 'c', 'type', 'value'];
    const inputs: unknown[] = [
      {},
      { a: 'Ada', b: 'ada', c: 1 },
      { a: ['Ada', 'Bob'], b: 'Ada' },
      { a: [{ b: 1 }, { b: 2 }, { b: [3, 4] }] },
      { a: { b: [{ c: true }, { c: false }] } },
      { a: [[1, 2], [3]] },
      {
        a: [
          { b: 'Ada', c: 'x' },
          { b: 'Bob', c: 'y' },
          { b: 'Ada', c: 'z' },
        ],
      },
      {
        a: [
          { type: 'user', value: 'u1' },
          { type: 'group', value: 'g1' },
        ],
      },
      { a: 3, b: 4 },
      { a: 'x', b: 2 },
      { a: true, b: [] },
      { a: null },
      { a: '  Ada   Lovelace ' },
      { a: [{ b: { c: 1 } }] },
      ...Array.from({ length: 120 }, () => generate(next, names)),
    ];
    let settled = 0;
    for (const c of corners) settled += (await compare(compileOne(c), inputs)).settled;
    expect(settled).toBeGreaterThan(corners.length * 20);
  });
});
