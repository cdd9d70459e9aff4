// Ajv's side of the differential test: judges every case the way the official MCP TypeScript
// SDK validates an elicitation answer, with Ajv and ajv-formats (strict: false, allErrors).
//
//   node ajv_judge.mjs schemas.json cases.jsonl [--modules DIR] [--draft7] > verdicts.jsonl
//
// schemas.json is {"Form": schema, ...}; each line of cases.jsonl is {"form": ..., "content": ...};
// each output line is {"valid": bool, "keywords": [...], "pointers": [...]}, one per case, in
// order. Ajv is loaded from DIR/node_modules (default: beside this file). The class is Ajv2020
// (JSON Schema 2020-12), or with --draft7 the draft-07 Ajv class the SDK itself constructs.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function loadAjv(modulesDir, draft7 = false) {
  const require = createRequire(join(resolve(modulesDir), 'package.json'));
  const ajvModule = require(draft7 ? 'ajv' : 'ajv/dist/2020');
  const formatsModule = require('ajv-formats');
  const Ajv = ajvModule.default ?? ajvModule;
  const addFormats = formatsModule.default ?? formatsModule;
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
  addFormats(ajv);
  return {
    ajv,
    versions: {
      ajv: require('ajv/package.json').version,
      'ajv-formats': require('ajv-formats/package.json').version,
    },
  };
}

// A JSON Pointer to what an error concerns; a missing property is pointed at by its name.
function pointerOf(error) {
  if (error.keyword === 'required') return `${error.instancePath}/${String(error.params.missingProperty).replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return error.instancePath;
}

export function judgeAll(ajv, schemas, lines) {
  const validators = new Map();
  const out = [];
  for (const line of lines) {
    const { form, content } = JSON.parse(line);
    if (!(form in schemas)) throw new Error(`no schema for form ${form}`);
    if (!validators.has(form)) validators.set(form, ajv.compile(schemas[form]));
    const validate = validators.get(form);
    const valid = validate(content);
    const errors = valid ? [] : validate.errors ?? [];
    out.push({ valid, keywords: errors.map((e) => e.keyword), pointers: errors.map(pointerOf) });
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let modules = dirname(fileURLToPath(import.meta.url));
  let draft7 = false;
  const files = [];
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--modules') modules = args[++i];
    else if (args[i] === '--draft7') draft7 = true;
    else files.push(args[i]);
  }
  if (files.length !== 2) {
    console.error('usage: node ajv_judge.mjs schemas.json cases.jsonl [--modules DIR] [--draft7]');
    process.exit(2);
  }
  const schemas = JSON.parse(readFileSync(files[0], 'utf8'));
  const lines = readFileSync(files[1], 'utf8').split('\n').filter((l) => l.length > 0);
  const { ajv } = loadAjv(modules, draft7);
  process.stdout.write(judgeAll(ajv, schemas, lines).map((v) => JSON.stringify(v)).join('\n') + '\n');
}
