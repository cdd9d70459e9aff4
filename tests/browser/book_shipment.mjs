// The official MCP Inspector (web UI) in headless Chromium, driven by puppeteer-core as a person
// would use it, books a shipment through samples/stdio_server: connect, open book_shipment, run
// it, and answer its three forms in the Inspector's own dialog. What the page shows is read off
// the rendered DOM and compared with expectations written here by hand:
//   - each form's message, and its fields in declaration order with their titles, descriptions,
//     required marks, length bounds and choices (a select's options, in the order offered);
//   - an invalid postcode is asked again: the message says in plain words what to fix, the valid
//     answers are filled in (and so no longer required), the postcode is empty and required;
//   - the tool's result text, in the page.
// The server's stderr and exit status are read through record_server.sh (the command given to
// the Inspector): no sanitizer report, and exit status 0 when the Inspector disconnects.
// Screenshots of each form, cropped to the dialog, go into WORK_DIR/screenshots, and into
// SCREENSHOT_DIR too when it is given. The Inspector (its process group: the server with it)
// and Chromium are stopped whatever happens.
//   node book_shipment.mjs SHIPMENT_SERVER RECORD_SERVER_SH WORK_DIR [SCREENSHOT_DIR]
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import puppeteer from 'puppeteer-core';

const [serverPath, recorder, work, screenshotDir] = process.argv.slice(2);
if (!serverPath || !recorder || !work) {
  console.error('usage: node book_shipment.mjs SHIPMENT_SERVER RECORD_SERVER_SH WORK_DIR [SCREENSHOT_DIR]');
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const chromiumPath = process.env.ELICIT_CHROMIUM ?? '/usr/bin/chromium';
const launcher = path.join(here, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

// What must not be on the server's stderr (its own log lines are fine).
const sanitizerReport =
    /ERROR: (Address|Leak|Thread|Memory)Sanitizer|runtime error:|SUMMARY: \w+Sanitizer|Segmentation fault|terminate called|Assertion .* failed/;

// The expectations, by hand. A field: its title, whether it is marked required, its description,
// what kind of control shows it, its value as shown, its length bounds, and a select's options
// as [value, label] in the order shown.
const countries =
    [['GB', 'United Kingdom'], ['IE', 'Ireland'], ['FR', 'France'], ['DE', 'Germany'], ['NL', 'Netherlands']];
const addressForm = {
  message: 'Where should shipment SHP-4471 be delivered?',
  fields: [
    {
      title: 'Street address',
      required: true,
      description: null,
      kind: 'text',
      value: '',
      minLength: null,
      maxLength: '120'
    },
    {title: 'City', required: true, description: null, kind: 'text', value: '', minLength: null, maxLength: '60'},
    {
      title: 'Postcode',
      required: true,
      description: 'UK format, e.g. SW1A 1AA',
      kind: 'text',
      value: '',
      minLength: '5',
      maxLength: '8'
    },
    {
      title: 'Country',
      required: true,
      description: null,
      kind: 'select',
      value: '',
      minLength: null,
      maxLength: null,
      choices: countries
    },
  ],
};
// Asked again: the message in plain words (the Inspector shows its line breaks as spaces); what
// was valid is kept as defaults, which are no longer required; the postcode is asked afresh.
const addressReask = {
  message:
      'Where should shipment SHP-4471 be delivered? Please correct this: - Postcode must be at least 5 characters long; got 1 character.',
  fields: [
    {
      title: 'Street address',
      required: false,
      description: null,
      kind: 'text',
      value: '1 High St',
      minLength: null,
      maxLength: '120'
    },
    {
      title: 'City',
      required: false,
      description: null,
      kind: 'text',
      value: 'London',
      minLength: null,
      maxLength: '60'
    },
    {
      title: 'Postcode',
      required: true,
      description: 'UK format, e.g. SW1A 1AA',
      kind: 'text',
      value: '',
      minLength: '5',
      maxLength: '8'
    },
    {
      title: 'Country',
      required: false,
      description: null,
      kind: 'select',
      value: 'United Kingdom',
      minLength: null,
      maxLength: null,
      choices: countries
    },
  ],
};
// The slots still free in the sample's table, offered at run time.
const slotForm = {
  message: 'When should shipment SHP-4471 arrive?',
  fields: [
    {
      title: 'Delivery slot',
      required: true,
      description: 'The slots still free',
      kind: 'select',
      value: '',
      minLength: null,
      maxLength: null,
      choices:
          [['tue-pm', 'Tuesday 12:00-18:00'], ['wed-am', 'Wednesday 8:00-12:00'], ['thu-am', 'Thursday 8:00-12:00']]
    },
    {
      title: 'Note for the driver',
      required: false,
      description: null,
      kind: 'text',
      value: '',
      minLength: null,
      maxLength: '200'
    },
  ],
};
// The destination starts as the address's country (a default: not required).
const optionsForm = {
  message: 'How should shipment SHP-4471 travel?',
  fields: [
    {
      title: 'Destination country',
      required: false,
      description: null,
      kind: 'select',
      value: 'United Kingdom',
      minLength: null,
      maxLength: null,
      choices: countries
    },
    {
      title: 'Insured value (GBP)',
      required: false,
      description: 'Leave blank for the default cover of £50.',
      kind: 'number',
      value: '',
      minLength: null,
      maxLength: null
    },
    {
      title: 'Signature required',
      required: false,
      description: null,
      kind: 'checkbox',
      value: false,
      minLength: null,
      maxLength: null
    },
  ],
};
const bookedText =
    'Shipment SHP-4471 booked to 1 High St, London SW1A 1AA, United Kingdom; arriving Wednesday 8:00-12:00 ' +
    '(note: Ring twice); destination country Ireland; insured for £250; signature required.';

// A free loopback port for each of the Inspector's listeners (web UI and API, MCP Apps sandbox,
// app origin): all held open together so that they differ, then released.
async function freePorts(n) {
  const servers = await Promise.all(Array.from({length: n}, () => new Promise((resolve, reject) => {
                                                              const s = net.createServer();
                                                              s.once('error', reject);
                                                              s.listen(0, '127.0.0.1', () => resolve(s));
                                                            })));
  const ports = servers.map((s) => s.address().port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(what, predicate, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

fs.rmSync(path.join(work, 'run'), {recursive: true, force: true});
const runDir = path.join(work, 'run');
const shots = path.join(work, 'screenshots');
for (const dir of [runDir, path.join(runDir, 'home'), shots]) fs.mkdirSync(dir, {recursive: true});
if (screenshotDir) fs.mkdirSync(screenshotDir, {recursive: true});
const inspectorLog = path.join(runDir, 'inspector.log');
const serverStderr = path.join(runDir, 'server.stderr');
const serverStatus = path.join(runDir, 'server.status');
fs.writeFileSync(serverStderr, '');

let inspector = null;
let inspectorExited = null;
let browser = null;
const groups = [];  // the process groups started (the Inspector's, Chromium's): none may outlive the run

const groupAlive = (pgid) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

// Stops Chromium and the Inspector's process group (the recorder and the server are in it):
// SIGTERM, then SIGKILL after 5 s.
async function stopAll() {
  if (browser) {
    const b = browser;
    browser = null;
    await Promise.race([b.close().catch(() => {}), sleep(5000)]);
    const proc = b.process();
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  }
  if (inspector) {
    const p = inspector;
    inspector = null;
    const signalGroup = (signal) => {
      try {
        process.kill(-p.pid, signal);
      } catch { /* gone */
      }
    };
    signalGroup('SIGTERM');
    await Promise.race([inspectorExited, sleep(5000)]);
    signalGroup('SIGKILL');  // the group's stragglers, if any
  }
}

// The whole run is bounded: past it, everything is stopped and the test fails.
const watchdog = setTimeout(async () => {
  console.error(`browser: the run took longer than 150 s; stopping (${elapsed()})`);
  await stopAll();
  process.exit(1);
}, 150_000);

// Starts the Inspector's web UI with the server command; resolves when it listens.
async function startInspector(ports, token) {
  const [clientPort, sandboxPort, appOriginPort] = ports;
  const env = {...process.env};
  for (const k
           of ['DANGEROUSLY_OMIT_AUTH', 'ALLOWED_ORIGINS', 'MCP_CATALOG_PATH', 'MCP_PROXY_AUTH_TOKEN', 'MCP_LOG_FILE'])
    delete env[k];
  Object.assign(env, {
    HOST: '127.0.0.1',
    CLIENT_PORT: String(clientPort),
    MCP_SANDBOX_PORT: String(sandboxPort),
    MCP_APP_ORIGIN_PORT: String(appOriginPort),
    MCP_INSPECTOR_API_TOKEN: token,  // required on every API call; served to the page in its HTML
    MCP_AUTO_OPEN_ENABLED: 'false',  // the test opens the page itself
    MCP_INSPECTOR_SECRET_STORE: 'memory',
    MCP_STORAGE_DIR: path.join(runDir, 'storage'),
    HOME: path.join(runDir, 'home'),  // nothing written to the user's ~/.mcp-inspector
  });
  // The server, as a read-only session file (--config) names it: the Inspector shows that name
  // ("The server “shipment_server” is requesting this data."). Its environment is the
  // Inspector's short default list plus "env": the sanitizer options of the build under test.
  const serverEnv = {};
  for (const k of ['ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS'])
    if (process.env[k]) serverEnv[k] = process.env[k];
  const config = path.join(runDir, 'servers.json');
  fs.writeFileSync(
      config,
      JSON.stringify(
          {
            mcpServers: {
              shipment_server: {
                type: 'stdio',
                command: recorder,
                args: [serverPath, serverStderr, serverStatus],
                env: serverEnv,
                cwd: runDir
              }
            }
          },
          null, 2));
  const log = fs.openSync(inspectorLog, 'w');
  inspector = spawn(
      process.execPath, [launcher, '--web', '--config', config],
      {env, cwd: runDir, detached: true, stdio: ['ignore', log, log]});
  fs.closeSync(log);
  groups.push(['the Inspector', inspector.pid]);
  inspectorExited = new Promise((resolve) => inspector.once('exit', (code, signal) => resolve({code, signal})));
  let exited = null;
  inspectorExited.then((r) => {
    exited = r;
  });
  await until('the Inspector to listen', () => {
    if (exited)
      throw new Error(
          `the Inspector ended at start (${JSON.stringify(exited)}):\n${fs.readFileSync(inspectorLog, 'utf8')}`);
    return fs.readFileSync(inspectorLog, 'utf8').includes('is up and running');
  }, 30_000);
  return `http://127.0.0.1:${clientPort}/?MCP_INSPECTOR_API_TOKEN=${token}`;
}

// Clicks the element matching `selector` whose own text, trimmed, is `text`.
async function clickText(page, selector, text) {
  const handle = await page.waitForFunction(
      (sel,
       t) => [...document.querySelectorAll(sel)].find((e) => e.textContent.trim() === t && e.offsetParent !== null),
      {}, selector, text);
  await handle.asElement().click();
}

// The open elicitation dialog, once its message is `message` and its animations are over.
async function dialogWith(page, message) {
  const handle = await page.waitForFunction((m) => {
    const norm = (s) => s.replace(/\s+/g, ' ').trim();
    for (const d of document.querySelectorAll('[role=dialog]')) {
      const sep = d.querySelector('[role=separator]');
      const shown = sep?.previousElementSibling?.textContent ?? '';
      if (d.textContent.includes('Elicitation Request') && norm(shown) === `“${m}”`) return d;
    }
    return null;
  }, {}, message);
  const dialog = handle.asElement();
  // The modal fades in: wait for its transitions to end, so that a screenshot shows it whole.
  await page
      .waitForFunction(
          (d) => {
            const root = d.closest('[data-portal]') ?? d.parentElement;
            return document.getAnimations().every(
                (a) => a.playState !== 'running' || !root.contains(a.effect?.target ?? null));
          },
          {timeout: 3000}, dialog)
      .catch(() => {});
  return dialog;
}

// What a dialog shows, read off the DOM: the message (whitespace collapsed, the Inspector's
// quotes removed) and every field in the order rendered. A select's options are read by
// opening it, and it is closed again by a second click.
async function readForm(page, dialog) {
  const form = await dialog.evaluate((d) => {
    const norm = (s) => s.replace(/\s+/g, ' ').trim();
    const sep = d.querySelector('[role=separator]');
    const message = norm(sep?.previousElementSibling?.textContent ?? '').replace(/^“|”$/g, '');
    const fields = [];
    for (const label of d.querySelectorAll('label[for]')) {
      const control = document.getElementById(label.htmlFor);
      if (!control || control.getAttribute('role') === 'switch') continue;  // "Edit as JSON"
      const mark = label.querySelector('span[aria-hidden=true]');
      const title = norm([...label.childNodes].filter((n) => n !== mark).map((n) => n.textContent).join(''));
      const kind = control.getAttribute('aria-haspopup') === 'listbox'                                    ? 'select' :
          control.type === 'checkbox'                                                                     ? 'checkbox' :
          ['numeric', 'decimal'].includes(control.getAttribute('inputmode')) || control.type === 'number' ? 'number' :
                                                                                                            'text';
      fields.push({
        id: control.id,
        title,
        required: label.dataset.required === 'true' && norm(mark?.textContent ?? '') === '*',
        description: document.getElementById(`${control.id}-description`)?.textContent.trim() ?? null,
        kind,
        value: kind === 'checkbox' ? control.checked : control.value,
        minLength: control.getAttribute('minlength'),
        maxLength: control.getAttribute('maxlength'),
      });
    }
    return {message, fields};
  });
  for (const field of form.fields) {
    if (field.kind !== 'select') continue;
    field.choices = await openSelect(page, field.id);
    await page.click(`[id="${field.id}"]`);  // closed again
    await page.waitForFunction(
        (id) => document.getElementById(id).getAttribute('aria-expanded') !== 'true', {}, field.id);
  }
  return form;
}

// Opens a select; returns its options as [value, label] in the order shown.
async function openSelect(page, id) {
  await page.click(`[id="${id}"]`);
  const listbox = await page.waitForFunction((i) => {
    const c = document.getElementById(i);
    const box = c.getAttribute('aria-controls') && document.getElementById(c.getAttribute('aria-controls'));
    return box && box.querySelector('[role=option]') && box.offsetParent !== null ? box.id : null;
  }, {}, id);
  return page.evaluate(
      (boxId) => [...document.getElementById(boxId).querySelectorAll('[role=option]')].map(
          (o) => [o.getAttribute('value'), o.textContent.trim()]),
      await listbox.jsonValue());
}

async function choose(page, id, value) {
  await openSelect(page, id);
  const boxId = await page.$eval(`[id="${id}"]`, (c) => c.getAttribute('aria-controls'));
  await page.click(`[id="${boxId}"] [role=option][value="${value}"]`);
  await page.waitForFunction((i) => document.getElementById(i).getAttribute('aria-expanded') !== 'true', {}, id);
}

// The form as read, compared field by field with the expectation (ids aside).
function assertForm(form, expected, name) {
  assert.equal(form.message, expected.message, `${name}: the message`);
  assert.deepEqual(
      form.fields.map((f) => f.title), expected.fields.map((f) => f.title),
      `${name}: the fields, in the order rendered`);
  form.fields.forEach((f, i) => {
    const {id, ...shown} = f;
    const want = {...expected.fields[i]};
    if (!want.choices) delete want.choices;
    assert.deepEqual(shown, want, `${name}: the field "${f.title}"`);
  });
}

const idOf = (form, title) => form.fields.find((f) => f.title === title).id;

async function screenshot(page, handleOrClip, name) {
  const file = path.join(shots, `${name}.png`);
  if (handleOrClip.screenshot) await handleOrClip.screenshot({path: file});
  else await page.screenshot({path: file, clip: handleOrClip});
  if (screenshotDir) fs.copyFileSync(file, path.join(screenshotDir, `${name}.png`));
}

// The box around a dialog and an open dropdown below it, in page pixels.
async function unionBox(...handles) {
  const boxes = await Promise.all(handles.map((h) => h.boundingBox()));
  const x = Math.min(...boxes.map((b) => b.x)), y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width)), bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return {x: Math.floor(x), y: Math.floor(y), width: Math.ceil(right - x), height: Math.ceil(bottom - y)};
}

const steps = [];
function step(name) {
  steps.push(name);
  console.log(`ok - ${name} (${elapsed()})`);
}

let failure = null;
let page = null;
try {
  const token = randomBytes(16).toString('hex');
  const url = await startInspector(await freePorts(3), token);
  step('the Inspector listens, with an API token');

  browser = await puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    // Root in a container: Chromium's own sandbox needs user namespaces it may not have.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--lang=en-GB'],
    userDataDir: path.join(runDir, 'chromium-profile'),
    env: {...process.env, HOME: path.join(runDir, 'home')},  // its caches away from the user's
    defaultViewport: {width: 1280, height: 900, deviceScaleFactor: 1},
  });
  groups.push(['Chromium', browser.process().pid]);
  page = await browser.newPage();
  page.setDefaultTimeout(20_000);
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  // Nothing leaves the machine: the page's web fonts (and anything else not on loopback) are
  // refused, so the run does not wait on a network and every run renders alike.
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol === 'data:' || u.protocol === 'blob:' || u.hostname === '127.0.0.1') r.continue();
    else r.abort('blockedbyclient');
  });
  await page.emulateMediaFeatures([{name: 'prefers-reduced-motion', value: 'reduce'}]);

  // The Inspector's API (which can start processes) answers only with the token, sent as
  // x-mcp-remote-auth: Bearer TOKEN; the page it serves carries the token.
  const api = new URL('/api/config', url);
  assert.equal((await fetch(api)).status, 401, 'the Inspector\'s API answered a request without the token');
  assert.equal(
      (await fetch(api, {headers: {'x-mcp-remote-auth': `Bearer ${token}`}})).status, 200,
      'the Inspector\'s API refused its own token');

  await page.goto(url, {waitUntil: 'load'});
  await page.waitForSelector('input[role=switch][aria-label^="Connect or disconnect"]');
  await page.click('input[role=switch][aria-label^="Connect or disconnect"]');
  await page.waitForSelector('[aria-label="Disconnect from server"]');
  await page.waitForFunction(() => document.body.innerText.includes('MCP 2025-11-25'));
  step('connected to the stdio sample over stdio, protocol 2025-11-25');

  await clickText(page, 'label, button', 'Tools');
  await clickText(page, 'button', 'book_shipment');
  const shipmentId = await page.waitForFunction(
      () => [...document.querySelectorAll('label[for]')].find((l) => l.textContent.trim() === 'shipment_id')?.htmlFor);
  await page.type(`[id="${await shipmentId.jsonValue()}"]`, 'SHP-4471');
  await clickText(page, 'button', 'Execute Tool');

  // 1. The delivery address, filled with a postcode too short.
  let dialog = await dialogWith(page, addressForm.message);
  let form = await readForm(page, dialog);
  assertForm(form, addressForm, 'the delivery address');
  await page.type(`[id="${idOf(form, 'Street address')}"]`, '1 High St');
  await page.type(`[id="${idOf(form, 'City')}"]`, 'London');
  await page.type(`[id="${idOf(form, 'Postcode')}"]`, 'S');
  await choose(page, idOf(form, 'Country'), 'GB');
  await screenshot(page, dialog, 'inspector-1-delivery-address');
  await clickText(page, '[role=dialog] button', 'Submit');
  step(
      'the delivery address: four fields in declaration order, titles, hint, required marks, bounds, countries; sent with postcode "S"');

  // 2. Asked again, in plain words, with the valid answers filled in.
  dialog = await dialogWith(page, addressReask.message);
  form = await readForm(page, dialog);
  assertForm(form, addressReask, 'the delivery address asked again');
  await screenshot(page, dialog, 'inspector-2-delivery-address-again');
  await page.type(`[id="${idOf(form, 'Postcode')}"]`, 'SW1A 1AA');
  await clickText(page, '[role=dialog] button', 'Submit');
  step(
      'asked again: "Please correct this: - Postcode must be at least 5 characters long; got 1 character.", street, city and country kept');

  // 3. The delivery slot, among the slots offered at run time (shown open).
  dialog = await dialogWith(page, slotForm.message);
  form = await readForm(page, dialog);
  assertForm(form, slotForm, 'the delivery slot');
  await page.type(`[id="${idOf(form, 'Note for the driver')}"]`, 'Ring twice');
  await openSelect(page, idOf(form, 'Delivery slot'));
  const listbox = await page.$(
      `[id="${await page.$eval(`[id="${idOf(form, 'Delivery slot')}"]`, (c) => c.getAttribute('aria-controls'))}"]`);
  await screenshot(page, await unionBox(dialog, listbox), 'inspector-3-delivery-slot');
  await page.click(`[id="${idOf(form, 'Delivery slot')}"]`);
  await choose(page, idOf(form, 'Delivery slot'), 'wed-am');
  await clickText(page, '[role=dialog] button', 'Submit');
  step('the delivery slot: the three free slots in the table\'s order, and the note');

  // 4. The shipment options, the destination prefilled with the address's country.
  dialog = await dialogWith(page, optionsForm.message);
  form = await readForm(page, dialog);
  assertForm(form, optionsForm, 'the shipment options');
  await screenshot(page, dialog, 'inspector-4-shipment-options');
  await choose(page, idOf(form, 'Destination country'), 'IE');
  await page.type(`[id="${idOf(form, 'Insured value (GBP)')}"]`, '250');
  await page.click(`[id="${idOf(form, 'Signature required')}"]`);
  await clickText(page, '[role=dialog] button', 'Submit');
  step('the shipment options: destination prefilled (United Kingdom), insured value with its hint, signature');

  // The tool's result, as the Inspector shows it.
  const result = (await page.waitForFunction((t) => {
                   const hits = [...document.querySelectorAll('main *')].filter(
                       (e) => e.children.length === 0 && e.textContent.includes(t));
                   return hits.length ? hits[0] : null;
                 }, {}, 'Shipment SHP-4471 booked to')).asElement();
  assert.equal((await result.evaluate((e) => e.textContent)).trim(), bookedText, 'the tool\'s result');
  await page.waitForFunction(() => !document.querySelector('[role=dialog]'), {timeout: 5000}).catch(() => {
    throw new Error('a form is still open after the booking');
  });
  const panelText = await page.evaluate(() => document.querySelector('main').innerText);
  assert.doesNotMatch(panelText, /Tool Call Failed|Tool Error/, 'the Inspector shows the call as failed');
  const card = await result.evaluateHandle((e) => {  // the card around it, with its "Results" heading
    let c = e;
    while (c.parentElement && c.tagName !== 'MAIN' && !/^\s*Results/.test(c.innerText)) c = c.parentElement;
    return c;
  });
  await screenshot(page, card.asElement(), 'inspector-5-result');
  step(`the result: "${bookedText}"`);

  assert.deepEqual(pageErrors, [], 'the page threw');

  // Disconnecting closes the server's stdin: it must end by itself, with status 0.
  await page.click('[aria-label="Disconnect from server"]');
  const status = await until(
      'the server to end after the disconnect',
      () => fs.existsSync(serverStatus) && fs.readFileSync(serverStatus, 'utf8').trim(), 15_000);
  assert.equal(status, '0', `the server ended with status ${status}`);
  step('disconnected: the server ended by itself with status 0');
} catch (e) {
  failure = e;
  // What the page showed when it failed: a screenshot, and the open dialog's markup.
  if (page && browser) {
    await page.screenshot({path: path.join(runDir, 'failure.png')}).catch(() => {});
    const dialogs = await page.$$eval('[role=dialog]', (ds) => ds.map((d) => d.outerHTML)).catch(() => []);
    fs.writeFileSync(path.join(runDir, 'failure-dialog.html'), dialogs.join('\n'));
  }
}

await stopAll();
clearTimeout(watchdog);
// Nothing left running: every process of both groups has ended (zombies reaped included).
for (const [name, pgid] of groups) {
  await until(`${name}'s processes to end`, () => !groupAlive(pgid), 5000).catch((e) => {
    failure ??= e;
  });
}

const stderr = fs.readFileSync(serverStderr, 'utf8');
if (sanitizerReport.test(stderr)) {
  failure ??= new Error('the server\'s stderr reports an error');
  console.log(`the server's stderr:\n${stderr}`);
}
if (failure) {
  console.log(
      `not ok - after: ${steps.at(-1) ?? 'nothing'}\n  ${String(failure.stack ?? failure).split('\n').join('\n  ')}`);
  console.log(`the Inspector's output (${inspectorLog}):\n${
      fs.readFileSync(inspectorLog, 'utf8').split('\n').slice(-30).join('\n')}`);
  if (stderr && !sanitizerReport.test(stderr)) console.log(`the server's stderr:\n${stderr}`);
  console.log(`browser: failed (${elapsed()}); screenshots so far in ${shots}`);
  process.exit(1);
}
console.log(
    `browser: the Inspector booked the shipment in ${steps.length} steps (${elapsed()}); screenshots in ${shots}` +
    (screenshotDir ? ` and ${screenshotDir}` : ''));
process.exit(0);
