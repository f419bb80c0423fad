import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ARCANA_BEAST_RULINGS } from '../src/arcana-beast/data';
import { ARCHSOUL_RULINGS } from '../src/archsoul/data';
import { NARATEER_RULINGS } from '../src/narateer/data';

/**
 * docs/rulings-index.md: one line per ruling, id → file. Comments and test titles cite rulings by id;
 * this suite checks that every id they cite is indexed and that every ruling has a test named by it.
 */
const ROOT = join(__dirname, '..', '..', '..');
const DOCS = join(ROOT, 'docs');
const INDEX = 'rulings-index.md';
/** The shared list kept beside the rule texts; it is not in this repository. */
const SHARED = 'RULINGS.md';
/** Generated from the contract's descriptions (`npm run schema`): its comments are the API's text. */
const GENERATED = new Set(['clients/typescript/src/openapi.d.ts']);

/** A ruling id: C, N, A or S and its number (no leading zero: `%A0` in a percent-escape is not one). */
const ID = /\b([CNAS])([1-9]\d{0,2})\b/g;
/** A rulings file named right before an id: the id alone is the citation. */
const FILE_BEFORE_ID = /(?:RULINGS\.md|docs\/rulings[\w-]*\.md|rulings[\w-]*\.md)\s+(?=[CNAS]\d)/;

/**
 * Texts that recorded logs hold as event data (a reason, a bonus's source) or in the stored view: changing
 * them would rewrite history, so they keep naming the shared file although the ruling is a project one.
 */
const RECORDED = [
  'bonusDice (RULINGS.md A30)',
  'RULINGS.md S26: the actor is Down',
  'RULINGS.md S30: a sneak attack reveals the attacker',
  'RULINGS.md S32: a reactive Knockdown knocked the actor down',
  'fell (RULINGS.md S47)',
  'RULINGS.md S40: fell',
  'fell (RULINGS.md S40)',
  'RULINGS.md S42: dismounted at will',
  'RULINGS.md S18: reactive attacks against',
  'first phase (RULINGS.md S12/S17)',
];
/** The shared file and the ids it names in a message or description, as in "ruling A13/A23" or "C6, C13" after it. */
const FILE_CITE = /RULINGS\.md ((?:[CNAS][1-9]\d{0,2})(?:(?:\/|, | and | or )[CNAS][1-9]\d{0,2})*)/g;

const index = new Map<string, string>();
for (const line of readFileSync(join(DOCS, INDEX), 'utf8').split('\n')) {
  const m = /^\|\s*([CNAS]\d+)\s*\|.+\|\s*(?:RULINGS\.md|\[([\w-]+\.md)\]\(\2\))\s*\|$/.exec(line);
  if (m) index.set(m[1], m[2] ?? SHARED);
}

const applied = [
  ...new Set([...NARATEER_RULINGS, ...ARCANA_BEAST_RULINGS, ...ARCHSOUL_RULINGS].map((r) => r.id)),
];
/** Rulings the service follows outside the rules engine, so that no system lists them. */
const OUTSIDE_THE_ENGINE = ['N14' /* the Combat Lab's strategies (libs/lab) */];
const order = (id: string) => 'CNAS'.indexOf(id[0]) * 1000 + Number(id.slice(1));
const sorted = (ids: Iterable<string>) => [...ids].sort((a, b) => order(a) - order(b));

/** Where each ruling paragraph (`**N25 Grid distance.**`) of the project's docs is. */
const documented = new Map<string, string[]>();
for (const file of readdirSync(DOCS).filter((f) => /^rulings(-[\w-]+)?\.md$/.test(f) && f !== INDEX)) {
  for (const m of readFileSync(join(DOCS, file), 'utf8').matchAll(/^\*\*([CNAS]\d+) /gm))
    documented.set(m[1], [...(documented.get(m[1]) ?? []), file]);
}

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (path.endsWith('.ts')) yield path;
  }
}

interface Cite {
  where: string;
  text: string;
}

const comments: Cite[] = [];
const titles: Cite[] = [];
const TEST_CALLS = new Set(['it', 'test', 'describe']);

/** `it`, `describe.each(…)`, `it.only`…: the function the call names, whatever is chained on it. */
function testCall(call: ts.CallExpression): boolean {
  let e: ts.Expression = call.expression;
  while (ts.isCallExpression(e) || ts.isPropertyAccessExpression(e)) e = e.expression;
  return ts.isIdentifier(e) && TEST_CALLS.has(e.text);
}

for (const file of ['apps', 'libs', 'test', 'clients'].flatMap((d) => [...sources(join(ROOT, d))])) {
  const text = readFileSync(file, 'utf8');
  const name = relative(ROOT, file);
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const seen = new Set<number>();
  const line = (pos: number) => `${name}:${sf.getLineAndCharacterOfPosition(pos).line + 1}`;
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      comments.push({ where: line(r.pos), text: text.slice(r.pos, r.end) });
    }
  };
  const spec = /\.spec\.ts$|\/spec\//.test(name);
  const visit = (node: ts.Node): void => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    if (spec && ts.isCallExpression(node) && testCall(node)) {
      const first = node.arguments[0];
      if (first && (ts.isStringLiteralLike(first) || ts.isTemplateExpression(first)))
        titles.push({ where: line(first.getStart(sf)), text: first.getText(sf) });
    }
    // Every child, tokens included: a comment before a closing brace belongs to that token.
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
}

const ids = (text: string) => [...text.matchAll(ID)].map((m) => m[0]);
const unknown = (cites: Cite[]) =>
  cites.flatMap((c) =>
    ids(c.text)
      .filter((id) => !index.has(id))
      .map((id) => `${c.where}: ${id}`),
  );

describe('docs/rulings-index.md: every ruling by id, and where it lives', () => {
  it('lists every ruling the three systems apply (GET /systems/:id) and the Lab’s, once each, and nothing else', () => {
    expect(index.size).toBeGreaterThan(100);
    expect(sorted(index.keys())).toEqual(sorted([...applied, ...OUTSIDE_THE_ENGINE]));
  });

  it('names, for each project ruling, the docs file whose paragraph it is; the shared ones are in no docs file', () => {
    const wrong = [...index]
      .filter(([id, file]) => (file === SHARED ? documented.has(id) : documented.get(id)?.join() !== file))
      .map(
        ([id, file]) =>
          `${id}: indexed in ${file}, documented in ${documented.get(id)?.join(', ') ?? 'none'}`,
      );
    expect(wrong).toEqual([]);
    expect(sorted([...documented.keys()].filter((id) => !index.has(id)))).toEqual([]);
  });

  it('every ruling id a code comment cites is in the index', () => {
    expect(comments.length).toBeGreaterThan(1000);
    expect(unknown(comments)).toEqual([]);
  });

  it('comments cite a ruling by its id alone, not by a rulings file (the index says where it lives)', () => {
    const named = comments
      .filter((c) => !GENERATED.has(c.where.split(':')[0]) && FILE_BEFORE_ID.test(c.text))
      .map((c) => `${c.where}: ${FILE_BEFORE_ID.exec(c.text)![0].trim()}`);
    expect(named).toEqual([]);
  });

  it('a message or description in built code names RULINGS.md only for rulings that live there', () => {
    const wrong: string[] = [];
    for (const file of ['apps', 'libs'].flatMap((d) => [...sources(join(ROOT, d))])) {
      const name = relative(ROOT, file);
      if (/\.spec\.ts$|\/spec\//.test(name)) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(FILE_CITE)) {
            const elsewhere = ids(m[1]).filter((id) => index.get(id) !== SHARED);
            if (elsewhere.length && !RECORDED.some((r) => line.includes(r)))
              wrong.push(
                `${name}:${i + 1}: ${m[0]} (${elsewhere.map((id) => `${id} is in ${index.get(id)}`).join(', ')})`,
              );
          }
        });
    }
    expect(wrong).toEqual([]);
  });

  it('every ruling id a test title cites is in the index', () => {
    expect(titles.length).toBeGreaterThan(1000);
    expect(unknown(titles)).toEqual([]);
  });

  it('every ruling is cited by id in at least one test title', () => {
    const cited = new Set(titles.flatMap((t) => ids(t.text)));
    expect(sorted([...index.keys()].filter((id) => !cited.has(id)))).toEqual([]);
  });
});
