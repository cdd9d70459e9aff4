// The Node baseline of the run-time benchmarks: what a TypeScript MCP server does with an
// elicitation answer, JSON.parse of the text and then the compiled Ajv validator of the form's
// requestedSchema, timed on the same schemas and answers as bench_runtime.
//
//   node bench_ajv.mjs --answers FILE [--modules DIR] [--out FILE] [--min-time S] [--repetitions N]
//
//   --answers      what `bench_runtime --export FILE` writes: every form's name, its schema (the
//                  text of elicit::schema_json<Form>) and its answers, valid and invalid
//   --modules      DIR/node_modules holds ajv and ajv-formats (default: tests/differential, where
//                  the differential test installs them; the bench target installs the same pinned
//                  versions into its build directory)
//   --out          where the results go, as JSON (default: print them only)
//   --min-time     seconds each measurement runs (default 0.2)
//   --repetitions  measurements per answer; the median is reported (default 5)
//
// Ajv is built as the official MCP TypeScript SDK builds it (tests/differential/ajv_judge.mjs,
// draft-07 class): new Ajv({strict: false, validateFormats: true, validateSchema: false,
// allErrors: true}) with ajv-formats. Each timed call is
//   answer = JSON.parse(text); if (answer.action === 'accept') validate(answer.content ?? {})
// and reads the verdict and, when invalid, the number of errors. The SDK also checks the whole
// ElicitResult with a Zod schema; that is left out, so Node's time is, if anything, low.
//
// Per answer: a warm-up of at least 0.2 s and 20,000 calls (V8 compiles the loop and the
// validator with its optimizing compiler), then --repetitions timed runs of as many calls as
// take --min-time. Times are ns per call: CPU time of the whole process (process.cpuUsage, so
// V8's garbage collector threads count), and wall-clock time; both medians.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadAjv } from '../differential/ajv_judge.mjs';

const here = dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const args = { modules: join(here, '..', 'differential'), out: null, minTime: 0.2, repetitions: 5 };
  for (let i = 0; i < argv.length; ++i) {
    const key = argv[i];
    const value = argv[++i];
    if (value === undefined) throw new Error(`${key} needs a value`);
    if (key === '--answers') args.answers = value;
    else if (key === '--modules') args.modules = value;
    else if (key === '--out') args.out = value;
    else if (key === '--min-time') args.minTime = Number(value);
    else if (key === '--repetitions') args.repetitions = Number(value);
    else throw new Error(`unknown option ${key}`);
  }
  if (!args.answers) throw new Error('--answers FILE is required');
  if (!(args.minTime > 0) || !(args.repetitions >= 1)) throw new Error('--min-time and --repetitions must be positive');
  return args;
}

// A loop of its own for every answer measured (new Function gives each its own feedback), so
// that V8 optimizes it for the one validator and the one text it sees: a server that handles
// one form, the best case for Node.
function makeLoop() {
  return new Function('text', 'validate', 'n', `
    let sink = 0;
    for (let i = 0; i < n; ++i) {
      const answer = JSON.parse(text);
      if (answer !== null && typeof answer === 'object' && answer.action === 'accept') {
        const content = answer.content === undefined ? {} : answer.content;
        sink += validate(content) ? 1 : validate.errors.length;
      }
    }
    return sink;`);
}

function timeRun(loop, text, validate, n) {
  const cpu0 = process.cpuUsage();
  const wall0 = process.hrtime.bigint();
  const sink = loop(text, validate, n);
  const wall = Number(process.hrtime.bigint() - wall0);
  const cpu = process.cpuUsage(cpu0);
  return { cpuNs: ((cpu.user + cpu.system) * 1000) / n, wallNs: wall / n, sink };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function measure(text, validate, minTime, repetitions) {
  const loop = makeLoop();
  // Warm-up: at least 0.2 s and 20,000 calls, in growing batches.
  let n = 1000;
  let spentNs = 0;
  let calls = 0;
  let last;
  while (spentNs < 0.2e9 || calls < 20000) {
    last = timeRun(loop, text, validate, n);
    spentNs += last.wallNs * n;
    calls += n;
    if (last.wallNs * n < 0.05e9) n *= 2;
  }
  const iterations = Math.max(1000, Math.ceil((minTime * 1e9) / last.wallNs));
  const runs = [];
  for (let r = 0; r < repetitions; ++r) runs.push(timeRun(loop, text, validate, iterations));
  return {
    iterations,
    cpu_ns: median(runs.map((x) => x.cpuNs)),
    wall_ns: median(runs.map((x) => x.wallNs)),
    cpu_ns_runs: runs.map((x) => x.cpuNs),
    wall_ns_runs: runs.map((x) => x.wallNs),
  };
}

const args = parseArgs(process.argv.slice(2));
const exported = JSON.parse(readFileSync(args.answers, 'utf8'));
const { ajv, versions } = loadAjv(args.modules, true);

// Check before measuring: Ajv accepts every valid answer and refuses every invalid one, or the
// comparison means nothing.
const cases = [];
for (const form of exported.forms) {
  const validate = ajv.compile(JSON.parse(form.schema));
  for (const answer of form.answers) {
    const parsed = JSON.parse(answer.text);
    const valid = parsed.action === 'accept' && validate(parsed.content ?? {});
    if (valid !== (answer.kind === 'valid')) {
      console.error(`bench_ajv: Ajv judges the ${answer.kind} answer of ${form.name} ${valid ? 'valid' : 'invalid'}: ` +
                    JSON.stringify(validate.errors));
      process.exit(1);
    }
    cases.push({ form: form.name, kind: answer.kind, text: answer.text, validate,
                 ajvErrors: valid ? 0 : validate.errors.length, rules: answer.rules });
  }
}

const benchmarks = [];
for (const c of cases) {
  const m = measure(c.text, c.validate, args.minTime, args.repetitions);
  const name = `decode/${c.form}/${c.kind}/text/ajv`;
  benchmarks.push({ name, form: c.form, kind: c.kind, rules: c.rules, ajv_errors: c.ajvErrors, repetitions: args.repetitions, ...m });
  console.log(`${name.padEnd(44)} ${m.cpu_ns.toFixed(0).padStart(8)} ns CPU ${m.wall_ns.toFixed(0).padStart(8)} ns wall` +
              `  ${String(m.iterations).padStart(9)} calls x ${args.repetitions}` +
              (c.rules > 0 ? `  (${c.ajvErrors} Ajv errors for ${c.rules} broken rules)` : ''));
}

const context = {
  date: new Date().toISOString(),
  node: process.version,
  v8: process.versions.v8,
  ajv: versions.ajv,
  'ajv-formats': versions['ajv-formats'],
  ajv_class: 'Ajv (draft-07), as the MCP TypeScript SDK constructs it',
  ajv_options: { strict: false, validateFormats: true, validateSchema: false, allErrors: true },
  min_time_s: args.minTime,
};
if (args.out) writeFileSync(args.out, JSON.stringify({ context, benchmarks }, null, 2) + '\n');
