// The differential test of elicit's answer validation against Ajv (docs/internals/differential.md).
//
//   node compare.mjs --driver PATH [--modules DIR] [--out DIR] [--seed N] [--attempts N] [--stall-ms N]
//                    [--allowlist FILE] [--min-cases N] [--require-allowlist-used]
//
// DIR/node_modules holds ajv and ajv-formats (default: beside this file); the cases, both sides'
// verdicts and the report are written to --out (default: elicit-differential in the temp dir).
//
// Generates the cases (generate.mjs) from the schemas the driver prints, has each one judged
// by elicit::decode_content (driver judge), by Ajv2020 and by the draft-07 Ajv class the SDK
// constructs (ajv_judge.mjs), and compares them property by property. Leaving aside elicit's
// deliberate faults (a number outside what the field's C++ type holds where the schema states
// no bound, a date-time with a fraction of a second for a std::chrono::sys_seconds field), each
// case is one of:
//   agreement    the same verdict, and the same properties at fault
//   deliberate   elicit rejects what Ajv accepts, for a deliberate reason only: allowed
//   format       the sides differ only in `format` faults, each of which is on the committed
//                allow-list (format_allowlist.json: form, property, value or pattern, which side
//                rejects, and why): allowed. A format difference not on the list fails the run,
//                whether the verdicts differ or both reject.
//   other        anything else: verdicts that differ on something other than format, a case
//                elicit gave no verdict on, both sides rejecting on different properties
// The run fails (exit 1) on any `other`, any format difference not on the allow-list, any case
// the draft-07 class judges otherwise than Ajv2020, fewer cases than --min-cases (default 5000),
// and with --require-allowlist-used, an allow-list entry no case needed. Exit 2: the run itself
// went wrong.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadAjv } from './ajv_judge.mjs';
import { Raw, casesText, generateCases } from './generate.mjs';

const here = dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const args = { modules: here, out: join(tmpdir(), 'elicit-differential'), seed: 20250131, attempts: 400, stallMs: 1000,
                 allowlist: join(here, 'format_allowlist.json'), minCases: 5000, requireAllowlistUsed: false };
  for (let i = 0; i < argv.length; ++i) {
    const key = argv[i].replace(/^--/, '');
    if (key === 'require-allowlist-used') {
      args.requireAllowlistUsed = true;
      continue;
    }
    const value = argv[++i];
    if (key === 'driver') args.driver = value;
    else if (key === 'modules') args.modules = value;
    else if (key === 'out') args.out = value;
    else if (key === 'seed') args.seed = Number(value);
    else if (key === 'attempts') args.attempts = Number(value);
    else if (key === 'stall-ms') args.stallMs = Number(value);
    else if (key === 'allowlist') args.allowlist = value;
    else if (key === 'min-cases') args.minCases = Number(value);
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
      // neighbours, so elicit takes it as below every integer type (docs/internals/differential.md).
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

// The faults of one side as property -> keywords; `skip(i)` leaves a fault out.
function faultsByProperty(v, skip) {
  const m = new Map();
  v.keywords.forEach((k, i) => {
    if (skip(i)) return;
    const p = propertyOf(v.pointers[i]) ?? '(content)';
    m.set(p, [...(m.get(p) ?? []), k]);
  });
  return m;
}

// A verdict's faults as text: each property at fault with its keywords, sorted.
function faultText(v) {
  return JSON.stringify([...faultsByProperty(v, () => false)].map(([p, k]) => [p, [...k].sort()]).sort());
}

// How the two verdicts of a case differ, property by property, elicit's deliberate faults
// aside: `format` lists the properties only one side finds a `format` fault with (and which),
// `properties` those only one side finds any other fault with.
function differences(c, mine, theirs, schemas, ranges) {
  const deliberate = mine.keywords.map((k, i) => deliberateReason(c, schemas, ranges, mine.pointers[i], k));
  const a = faultsByProperty(mine, (i) => deliberate[i] !== null);
  const b = faultsByProperty(theirs, () => false);
  const format = [], properties = [];
  for (const p of new Set([...a.keys(), ...b.keys()])) {
    const ka = a.get(p) ?? [], kb = b.get(p) ?? [];
    const fa = ka.includes('format'), fb = kb.includes('format');
    if (fa !== fb) format.push({ property: p, rejectedBy: fa ? 'elicit' : 'ajv' });
    if (ka.some((k) => k !== 'format') !== kb.some((k) => k !== 'format')) properties.push(p);
  }
  const reasons = deliberate.filter((r) => r !== null);
  return { format, properties, reasons, allDeliberate: reasons.length === mine.keywords.length };
}

// The committed allow-list of known format differences: each entry names the form, the
// property, the value (or a pattern it matches), the side that rejects it, and why.
function loadAllowlist(path, schemas) {
  const list = JSON.parse(readFileSync(path, 'utf8')).entries;
  if (!Array.isArray(list)) throw new Error(`${path}: no "entries" list`);
  return list.map((e, index) => {
    const where = `${path}: entry ${index + 1}`;
    for (const key of ['form', 'property', 'rejected_by', 'why'])
      if (typeof e[key] !== 'string' || !e[key]) throw new Error(`${where}: "${key}" is missing`);
    if (('value' in e) === ('pattern' in e)) throw new Error(`${where}: give exactly one of "value" and "pattern"`);
    if (!['elicit', 'ajv'].includes(e.rejected_by)) throw new Error(`${where}: "rejected_by" is "elicit" or "ajv"`);
    const prop = schemas[e.form]?.properties?.[e.property];
    if (!prop) throw new Error(`${where}: ${e.form}.${e.property} is no property of the forms under test`);
    if (!prop.format) throw new Error(`${where}: ${e.form}.${e.property} has no format`);
    return { ...e, index, regex: 'pattern' in e ? new RegExp(e.pattern, 'u') : null, used: 0 };
  });
}

// The allow-list entry that covers a format difference, or undefined.
function allowed(allowlist, c, diff) {
  const value = c.content[diff.property];
  return allowlist.find((e) => e.form === c.form && e.property === diff.property && e.rejected_by === diff.rejectedBy &&
    (e.regex ? typeof value === 'string' && e.regex.test(value) : e.value === value));
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

  const allowlist = loadAllowlist(args.allowlist, schemas);
  const totals = { cases: cases.length, agree: 0, bothAccept: 0, bothReject: 0, format: 0, deliberate: 0, other: 0 };
  const deliberate = new Map(), formats = new Map(), others = [], perForm = new Map(), mismatched = [], unlisted = [];
  const draftDiffers = [];
  cases.forEach((c, i) => {
    const m = mine[i], t = theirs[i], d = draft7[i];
    // Draft-07 and 2020-12 must read elicit's schemas alike: the same verdict, the same faults.
    if (d.valid !== t.valid || faultText(d) !== faultText(t)) draftDiffers.push({ c, d, t });
    const f = perForm.get(c.form) ?? { cases: 0, disagree: 0 };
    perForm.set(c.form, f);
    ++f.cases;
    if (m.error) {
      ++f.disagree;
      ++totals.other;
      others.push({ c, m, t, why: `elicit gave no verdict: ${m.error}` });
      return;
    }
    const diff = differences(c, m, t, schemas, ranges);
    // Every format difference, in any case, must be on the allow-list.
    for (const fd of diff.format) {
      const value = c.content[fd.property];
      const format = schemas[c.form].properties[fd.property]?.format ?? '?';
      const entry = allowed(allowlist, c, fd);
      const key = `${format}: ${fd.rejectedBy === 'elicit' ? 'elicit rejects, Ajv accepts' : 'elicit accepts, Ajv rejects'}\t` +
                  `${c.form}.${fd.property} ${shortText(value)}`;
      if (entry) {
        ++entry.used;
        formats.set(key, (formats.get(key) ?? 0) + 1);
      } else {
        unlisted.push({ c, m, t, fd, format });
      }
    }
    if (m.valid === t.valid) {
      ++totals.agree;
      ++totals[m.valid ? 'bothAccept' : 'bothReject'];
      if (diff.properties.length) mismatched.push({ c, m, t, differ: diff.properties });
      return;
    }
    ++f.disagree;
    if (!m.valid && t.valid && diff.allDeliberate) {
      ++totals.deliberate;
      const why = [...new Set(diff.reasons)].join('; ');
      const list = deliberate.get(why) ?? [];
      deliberate.set(why, list);
      list.push({ c, m, t });
    } else if (diff.properties.length === 0 && diff.format.length > 0) {
      ++totals.format;
    } else {
      ++totals.other;
      others.push({ c, m, t, why: 'verdicts differ' });
    }
  });
  const unused = allowlist.filter((e) => e.used === 0);
  const failures = [];
  if (totals.cases < args.minCases) failures.push(`${totals.cases} cases ran, fewer than the minimum of ${args.minCases}`);
  if (totals.other) failures.push(`${totals.other} cases disagree without a documented reason`);
  if (unlisted.length) failures.push(`${unlisted.length} format differences are not on the allow-list`);
  if (mismatched.length) failures.push(`${mismatched.length} cases both reject, on different properties`);
  if (draftDiffers.length) failures.push(`${draftDiffers.length} cases judged otherwise by Ajv's draft-07 class than by Ajv2020`);
  if (unused.length && args.requireAllowlistUsed) failures.push(`${unused.length} allow-list entries were not needed by any case`);

  const out = [];
  const say = (s = '') => out.push(s);
  say(`differential: elicit::decode_content against Ajv ${versions.ajv} (Ajv2020) + ajv-formats ${versions['ajv-formats']}, ` +
      `seed ${args.seed}`);
  say(`  ${totals.cases} cases over ${perForm.size} forms: ` +
      [...perForm].map(([form, f]) => `${form} ${f.cases}`).join(', '));
  say(`  agreements:              ${totals.agree} (both accept ${totals.bothAccept}, both reject ${totals.bothReject})`);
  say(`  format disagreements:    ${totals.format} (verdicts differ on format only)`);
  say(`  deliberate disagreements: ${totals.deliberate} (allowed; docs/internals/differential.md)`);
  say(`  other disagreements:     ${totals.other}${totals.other ? '  <-- FAILURE' : ''}`);
  say(`  format differences on the allow-list: ${[...formats.values()].reduce((x, y) => x + y, 0)} ` +
      `(${allowlist.length - unused.length} of ${allowlist.length} entries used)`);
  say(`  format differences not on the allow-list: ${unlisted.length}${unlisted.length ? '  <-- FAILURE' : ''}`);
  say(`  both reject, on different properties: ${mismatched.length}${mismatched.length ? '  <-- FAILURE' : ''}`);
  say(`  Ajv draft-07 class vs Ajv2020: ${draftDiffers.length} cases differ${draftDiffers.length ? '  <-- FAILURE' : ''}`);
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
    say('Format differences on the allow-list, by format and verdicts (distinct values, the number of cases in brackets):');
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
  if (unlisted.length) {
    say();
    say(`Format differences not on the allow-list (${args.allowlist}): the first ${Math.min(20, unlisted.length)} of ` +
        `${unlisted.length}:`);
    for (const { c, m, t, fd, format } of unlisted.slice(0, 20)) {
      say(`  [${c.tag}] ${c.form}.${fd.property} (${format}): ${shortText(c.content[fd.property])}, rejected by ${fd.rejectedBy} only`);
      say(`    elicit ${verdictText(m)}`);
      say(`    Ajv    ${verdictText(t)}`);
    }
  }
  if (unused.length) {
    say();
    say(`Allow-list entries no case needed${args.requireAllowlistUsed ? '' : ' (information: other seeds meet other values)'}:`);
    for (const e of unused) say(`  ${e.form}.${e.property} ${'value' in e ? JSON.stringify(e.value) : `/${e.pattern}/`}`);
  }
  if (draftDiffers.length) {
    say();
    say(`Ajv draft-07 class vs Ajv2020: the first ${Math.min(10, draftDiffers.length)} of ${draftDiffers.length}:`);
    for (const { c, d, t } of draftDiffers.slice(0, 10)) {
      say(`  [${c.tag}] ${show(c)}`);
      say(`    draft-07 ${verdictText(d)}`);
      say(`    2020-12  ${verdictText(t)}`);
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
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (failures.length) say(`differential: FAIL: ${failures.join('; ')} (${totals.cases} cases, ${seconds} s)`);
  else say(`differential: PASS: ${totals.cases} cases; no disagreement without a documented reason (${seconds} s)`);
  const report = out.join('\n') + '\n';
  process.stdout.write(report);

  writeFileSync(join(args.out, 'elicit.jsonl'), mine.map((v) => JSON.stringify(v)).join('\n') + '\n');
  writeFileSync(join(args.out, 'ajv.jsonl'), theirs.map((v) => JSON.stringify(v)).join('\n') + '\n');
  writeFileSync(join(args.out, 'report.txt'), report);
  // The format differences not on the allow-list, one a line, as entries of it would name them.
  writeFileSync(join(args.out, 'format-unlisted.jsonl'),
                unlisted.map(({ c, fd }) => JSON.stringify({ form: c.form, property: fd.property, rejected_by: fd.rejectedBy,
                                                             value: c.content[fd.property] })).join('\n') + '\n');
  return failures.length === 0 ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (e) {
  console.error(`differential: ${e.stack ?? e}`);
  process.exitCode = 2;
}
