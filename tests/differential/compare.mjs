// The differential test of elicit's answer validation against Ajv (docs/differential.md).
//
//   node compare.mjs --driver PATH [--modules DIR] [--out DIR] [--seed N] [--attempts N] [--stall-ms N]
//
// DIR/node_modules holds ajv and ajv-formats (default: beside this file); the cases, both sides'
// verdicts and the report are written to --out (default: elicit-differential in the temp dir).
//
// Generates the cases (generate.mjs) from the schemas the driver prints, has each one judged
// by elicit::decode_content (driver judge) and by Ajv (ajv_judge.mjs), and sorts every case
// where the two verdicts differ into one of three kinds:
//   format      the violations on both sides concern only the `format` keyword: reported, allowed
//   deliberate  elicit rejects what Ajv accepts, for a reason docs/differential.md gives:
//               a number outside what the field's C++ type holds where the schema states no bound,
//               or a date-time with a fraction of a second for a std::chrono::sys_seconds field
//   other       anything else, including a case elicit gave no verdict on: the test fails
// Exits 0 when there is no `other`, 1 when there is, 2 when the run itself went wrong.

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadAjv } from './ajv_judge.mjs';
import { Raw, casesText, generateCases } from './generate.mjs';

const here = dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const args = { modules: here, out: join(tmpdir(), 'elicit-differential'), seed: 20250131, attempts: 400, stallMs: 1000 };
  for (let i = 0; i < argv.length; ++i) {
    const key = argv[i].replace(/^--/, '');
    const value = argv[++i];
    if (key === 'driver') args.driver = value;
    else if (key === 'modules') args.modules = value;
    else if (key === 'out') args.out = value;
    else if (key === 'seed') args.seed = Number(value);
    else if (key === 'attempts') args.attempts = Number(value);
    else if (key === 'stall-ms') args.stallMs = Number(value);
    else throw new Error(`unknown option ${argv[i - 1]}`);
  }
  if (!args.driver) throw new Error('--driver PATH is required');
  return args;
}

function run(command, args, input) {
  const r = spawnSync(command, args, { input, maxBuffer: 1 << 28, encoding: 'utf8', timeout: 120000 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return r.stdout;
}

const jsonLines = (text) => text.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));

// ---- Telling the deliberate disagreements apart ----------------------------------------------

function unescapePointerToken(t) {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

// The property a JSON Pointer into the content starts at ("/a/0" -> "a"), or null for "".
function propertyOf(pointer) {
  if (!pointer) return null;
  return unescapePointerToken(pointer.split('/')[1]);
}

// A JSON number's text as the exact integer both parsers read it as, or null when it is not
// whole. An integer literal is exact; any other number is the double nearest to its text.
function exactInteger(text) {
  if (/^-?\d+$/.test(text)) return BigInt(text);
  const x = Number(text);
  return Number.isInteger(x) ? BigInt(x) : null;
}

const numberText = (v) => (v instanceof Raw ? v.text : typeof v === 'number' ? String(v) : null);

// Why elicit rejects this violation on purpose, or null when it is no deliberate one.
function deliberateReason(c, schemas, ranges, pointer, keyword) {
  const name = propertyOf(pointer);
  if (name === null || pointer !== '/' + pointer.split('/')[1] || !(name in c.content)) return null;
  const prop = schemas[c.form].properties[name];
  const range = (ranges[c.form] ?? {})[name];
  const value = c.content[name];
  if (!prop) return null;
  if (range && (keyword === 'minimum' || keyword === 'maximum')) {
    const text = numberText(value);
    if (text === null) return null;
    if (range.kind === 'integer') {
      // Not an integer literal, and a double at or below -2^63: it cannot be told from its
      // neighbours, so elicit takes it as below every integer type (docs/differential.md).
      if (keyword === 'minimum' && !/^-?\d+$/.test(text) && Number(text) <= -(2 ** 63) && prop.minimum === undefined)
        return 'a fraction or exponent at or below -2^63, not an exact 64-bit integer';
      const n = exactInteger(text);
      if (n === null) return null;
      if (n < BigInt(range.min) && prop.minimum === undefined) return 'integer below what the C++ type holds, no minimum in the schema';
      if (n > BigInt(range.max) && prop.maximum === undefined) return 'integer above what the C++ type holds, no maximum in the schema';
    } else {
      const x = Number(text);
      if (x < range.min && prop.minimum === undefined) return 'number below what the C++ type holds (float), no minimum in the schema';
      if (x > range.max && prop.maximum === undefined) return 'number above what the C++ type holds (float), no maximum in the schema';
    }
    return null;
  }
  if (keyword === 'format' && prop.format === 'date-time' && typeof value === 'string' &&
      /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d\.\d*[1-9]\d*([Zz]|[+-]\d\d:\d\d)$/.test(value))
    return 'date-time with a fraction of a second, for a std::chrono::sys_seconds field';
  return null;
}

// ---- The comparison ---------------------------------------------------------------------------

function classify(c, mine, theirs, schemas, ranges) {
  if (mine.error) return { kind: 'other', why: `elicit gave no verdict: ${mine.error}` };
  const reasons = mine.keywords.map((k, i) => deliberateReason(c, schemas, ranges, mine.pointers[i], k));
  if (!mine.valid && theirs.valid && reasons.every((r) => r !== null))
    return { kind: 'deliberate', why: [...new Set(reasons)].join('; ') };
  const left = mine.keywords.filter((k, i) => reasons[i] === null);
  if ([...left, ...theirs.keywords].every((k) => k === 'format') && left.length + theirs.keywords.length > 0)
    return { kind: 'format' };
  return { kind: 'other', why: 'verdicts differ' };
}

// For a case both reject: the properties only one side finds fault with, leaving out the
// deliberate violations and the properties whose faults on either side are only `format`.
function propertyMismatch(c, mine, theirs, schemas, ranges) {
  const faults = (v, skip) => {
    const m = new Map();
    v.keywords.forEach((k, i) => {
      if (skip(i)) return;
      const p = propertyOf(v.pointers[i]) ?? '(content)';
      m.set(p, [...(m.get(p) ?? []), k]);
    });
    return m;
  };
  const a = faults(mine, (i) => deliberateReason(c, schemas, ranges, mine.pointers[i], mine.keywords[i]) !== null);
  const b = faults(theirs, () => false);
  const onlyFormat = (p) => [...(a.get(p) ?? []), ...(b.get(p) ?? [])].every((k) => k === 'format');
  const differ = [...new Set([...a.keys(), ...b.keys()])].filter((p) => a.has(p) !== b.has(p) && !onlyFormat(p));
  return differ;
}

// A value as JSON; a long string cut to its start and end, with its length in code points.
function shortText(v) {
  if (typeof v !== 'string' || v.length <= 90) return JSON.stringify(v);
  return `${JSON.stringify(v.slice(0, 40))}...${JSON.stringify(v.slice(-30))} (${[...v].length} characters)`;
}

function valueText(v) {
  if (v instanceof Raw) return v.text;
  return JSON.stringify(v);
}

function show(c) {
  const t = c.text.length > 600 ? c.text.slice(0, 600) + '...' : c.text;
  return `${c.form} ${t}`;
}

function verdictText(v) {
  if (v.error) return `no verdict (${v.error})`;
  return v.valid ? 'accepts' : `rejects [${v.pointers.map((p, i) => `${p || '(content)'}: ${v.keywords[i]}`).join(', ')}]`;
}

// The values at the places a format disagreement concerns, with the verdict of each side.
function formatValues(c, mine, theirs) {
  const out = [];
  const props = new Set();
  mine.keywords.forEach((k, i) => k === 'format' && props.add(propertyOf(mine.pointers[i])));
  theirs.keywords.forEach((k, i) => k === 'format' && props.add(propertyOf(theirs.pointers[i])));
  for (const p of props) out.push({ property: p, value: c.content[p], elicit: mine.valid ? 'accepts' : 'rejects',
                                    ajv: theirs.valid ? 'accepts' : 'rejects' });
  return out;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const schemas = JSON.parse(run(args.driver, ['schemas']));
  const ranges = JSON.parse(run(args.driver, ['ranges']));
  const cases = generateCases(schemas, ranges, { seed: args.seed, attempts: args.attempts });
  const input = casesText(cases);
  mkdirSync(args.out, { recursive: true });
  const schemasPath = join(args.out, 'schemas.json'), casesPath = join(args.out, 'cases.jsonl');
  writeFileSync(schemasPath, JSON.stringify(schemas, null, 2) + '\n');
  writeFileSync(casesPath, input);
  const mine = jsonLines(run(args.driver, ['judge', String(args.stallMs)], input));
  const judge = join(here, 'ajv_judge.mjs');
  const theirs = jsonLines(run(process.execPath, [judge, schemasPath, casesPath, '--modules', args.modules]));
  // The SDK constructs Ajv's draft-07 class; for these schemas it must judge as Ajv2020 does.
  const draft7 = jsonLines(run(process.execPath, [judge, schemasPath, casesPath, '--modules', args.modules, '--draft7']));
  const { versions } = loadAjv(args.modules);
  if (mine.length !== cases.length || theirs.length !== cases.length || draft7.length !== cases.length)
    throw new Error(`${cases.length} cases but ${mine.length} verdicts from elicit, ${theirs.length} from Ajv`);

  const totals = { cases: cases.length, agree: 0, bothAccept: 0, bothReject: 0, format: 0, deliberate: 0, other: 0 };
  const deliberate = new Map(), formats = new Map(), others = [], perForm = new Map(), mismatched = [];
  let draftDiffers = 0;
  cases.forEach((c, i) => {
    const m = mine[i], t = theirs[i];
    if (draft7[i].valid !== t.valid) ++draftDiffers;
    const f = perForm.get(c.form) ?? { cases: 0, disagree: 0 };
    perForm.set(c.form, f);
    ++f.cases;
    if (!m.error && m.valid === t.valid) {
      ++totals.agree;
      ++totals[m.valid ? 'bothAccept' : 'bothReject'];
      if (!m.valid) {
        const differ = propertyMismatch(c, m, t, schemas, ranges);
        if (differ.length) mismatched.push({ c, m, t, differ });
      }
      return;
    }
    ++f.disagree;
    const k = classify(c, m, t, schemas, ranges);
    ++totals[k.kind];
    if (k.kind === 'deliberate') {
      const list = deliberate.get(k.why) ?? [];
      deliberate.set(k.why, list);
      list.push({ c, m, t });
    } else if (k.kind === 'format') {
      for (const v of formatValues(c, m, t)) {
        const format = schemas[c.form].properties[v.property]?.format ?? '?';
        const key = `${format}: elicit ${v.elicit}, Ajv ${v.ajv}\t${shortText(v.value)}`;
        formats.set(key, (formats.get(key) ?? 0) + 1);
      }
    } else {
      others.push({ c, m, t, why: k.why });
    }
  });

  const out = [];
  const say = (s = '') => out.push(s);
  say(`differential: elicit::decode_content against Ajv ${versions.ajv} (Ajv2020) + ajv-formats ${versions['ajv-formats']}, ` +
      `seed ${args.seed}`);
  say(`  ${totals.cases} cases over ${perForm.size} forms: ` +
      [...perForm].map(([form, f]) => `${form} ${f.cases}`).join(', '));
  say(`  agreements:              ${totals.agree} (both accept ${totals.bothAccept}, both reject ${totals.bothReject})`);
  say(`  format disagreements:    ${totals.format} (allowed; listed below)`);
  say(`  deliberate disagreements: ${totals.deliberate} (allowed; docs/differential.md)`);
  say(`  other disagreements:     ${totals.other}${totals.other ? '  <-- FAILURE' : ''}`);
  say(`  both reject, on different properties: ${mismatched.length} (deliberate and format-only faults aside; ` +
      `a warning, not a failure)`);
  say(`  Ajv draft-07 class vs Ajv2020: ${draftDiffers} verdicts differ`);
  if (deliberate.size) {
    say();
    say('Deliberate disagreements (elicit rejects, Ajv accepts):');
    for (const [why, list] of deliberate) {
      const byField = new Map();  // "Form.field" -> the distinct values given to it
      for (const { c, m } of list) {
        for (const p of new Set(m.pointers)) {
          const at = `${c.form}.${propertyOf(p)}`;
          byField.set(at, (byField.get(at) ?? new Set()).add(valueText(c.content[propertyOf(p)])));
        }
      }
      say(`  ${list.length} case${list.length === 1 ? '' : 's'}: ${why}`);
      for (const [at, values] of byField) {
        const shown = [...values].slice(0, 6).join(', ');
        say(`      ${at}: ${shown}${values.size > 6 ? `, ... (${values.size} values)` : ''}`);
      }
    }
  }
  if (formats.size) {
    say();
    say('Format disagreements, by format and verdicts (distinct values, the number of cases in brackets):');
    const groups = new Map();
    for (const [key, n] of formats) {
      const [group, value] = key.split('\t');
      groups.set(group, [...(groups.get(group) ?? []), `${value} (${n})`]);
    }
    for (const [group, values] of [...groups].sort()) {
      say(`  ${group}: ${values.length} values`);
      for (const v of values.sort().slice(0, 40)) say(`      ${v}`);
      if (values.length > 40) say(`      ... and ${values.length - 40} more`);
    }
  }
  if (mismatched.length) {
    say();
    say(`Both reject, on different properties: the first ${Math.min(10, mismatched.length)} of ${mismatched.length}:`);
    for (const { c, m, t, differ } of mismatched.slice(0, 10)) {
      say(`  [${c.tag}] ${differ.join(', ')}`);
      say(`    ${show(c)}`);
      say(`    elicit ${verdictText(m)}`);
      say(`    Ajv    ${verdictText(t)}`);
    }
  }
  if (others.length) {
    say();
    say(`Other disagreements: the first ${Math.min(20, others.length)} of ${others.length}:`);
    for (const { c, m, t, why } of others.slice(0, 20)) {
      say(`  [${c.tag}] ${why}`);
      say(`    ${show(c)}`);
      say(`    elicit ${verdictText(m)}`);
      say(`    Ajv    ${verdictText(t)}`);
    }
  }
  say();
  say(`differential: ${totals.other === 0 ? 'PASS' : 'FAIL'}: ${totals.other} of ${totals.cases} cases disagree ` +
      `without a documented reason (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const report = out.join('\n') + '\n';
  process.stdout.write(report);

  writeFileSync(join(args.out, 'elicit.jsonl'), mine.map((v) => JSON.stringify(v)).join('\n') + '\n');
  writeFileSync(join(args.out, 'ajv.jsonl'), theirs.map((v) => JSON.stringify(v)).join('\n') + '\n');
  writeFileSync(join(args.out, 'report.txt'), report);
  return totals.other === 0 ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (e) {
  console.error(`differential: ${e.stack ?? e}`);
  process.exitCode = 2;
}
