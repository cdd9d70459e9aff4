// The cases of the differential test: for every form, answers built from its schema (valid
// ones), and mutations of them that break one rule or walk along its edge. Deterministic: the
// same schemas, ranges and seed give the same cases, in the same order. For each form:
//   1. contents that are no object (null, [], "text", ...) and the empty object;
//   2. every edge of every property (edges()), once each, in an otherwise valid answer:
//      bounds and their neighbours, whole floats, fractions, numbers past the C++ type, lengths
//      in code points of 1- to 4-byte characters, every format probe, titles for wire values...;
//   3. random answers: every fifth valid as built, the others with one or two random mutations
//      (mutations()), some with an unknown key, some with non-ASCII text sent as \u escapes.
// Exact duplicates are dropped. ranges.json is what `driver ranges` prints: valid integers are
// kept within what the C++ type holds, so that only the mutations step outside it.
//
// Numbers are kept as the text that goes on the wire (class Raw), so that 30.0, 1e3 and
// integers past 2^53 reach elicit exactly as written; each judge parses the same JSON text.
//
//   node generate.mjs schemas.json ranges.json [seed] [attempts-per-form] > cases.jsonl

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// A JSON number, written as this text.
export class Raw {
  constructor(text) {
    this.text = String(text);
  }
}

const DROP = Symbol('drop');  // a mutation that removes the key

// ---- JSON text ------------------------------------------------------------------------------

function stringText(s, ascii) {
  const t = JSON.stringify(s);
  if (!ascii) return t;
  return t.replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

// The JSON text of a value; `ascii` escapes every non-ASCII character as \uXXXX (surrogate
// pairs beyond the BMP), the other way a client may send the same text.
export function serialize(v, ascii = false) {
  if (v instanceof Raw) return v.text;
  if (v === null) return 'null';
  if (Array.isArray(v)) return '[' + v.map((x) => serialize(x, ascii)).join(',') + ']';
  if (typeof v === 'object')
    return '{' + Object.entries(v).map(([k, x]) => stringText(k, ascii) + ':' + serialize(x, ascii)).join(',') + '}';
  if (typeof v === 'string') return stringText(v, ascii);
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v);
}

// ---- A seeded PRNG (mulberry32) -------------------------------------------------------------

function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),  // inclusive, small ranges
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    big: (lo, hi) => {  // a BigInt in [lo, hi]
      const span = hi - lo + 1n;
      let x = 0n;
      for (let i = 0; i < 3; ++i) x = (x << 32n) | BigInt(Math.floor(next() * 4294967296));
      return lo + (x % span);
    },
  };
  return r;
}

// ---- Doubles: neighbours and text -------------------------------------------------------------

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);
function nextUp(x) {
  if (x === 0) return Number.MIN_VALUE;
  f64[0] = x;
  i64[0] += x > 0 ? 1n : -1n;
  return f64[0];
}
function nextDown(x) {
  return -nextUp(-x);
}

// A whole number written as a float: 30.0, 3e1, 3E+1.
function wholeFloatText(n, r) {
  const s = n.toString();
  if (r.chance(0.5) || n === 0n) return s + '.0';
  const neg = s.startsWith('-');
  let digits = neg ? s.slice(1) : s, exp = 0;
  while (digits.length > 1 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    ++exp;
  }
  return (neg ? '-' : '') + digits + r.pick(['e', 'E', 'e+', 'E+']) + exp;
}

const TWO53 = 2n ** 53n;

// ---- Text ---------------------------------------------------------------------------------------

// Code points of every width in UTF-8: 1 byte, 2 (é, the combining acute), 3 (€, 中), 4 (emoji).
const CHARS = ['a', 'b', 'Z', '7', ' ', '-', '"', '\\', '/', '\n', '\t', '\u0000', 'é', 'ß', '\u0301', '€', '中', '😀', '🇬', '\u{10FFFF}'];
const WIDE = ['é', '😀', '中', '€', 'ñ'];

function codePoints(s) {
  return [...s].length;
}
function text(r, length, pool = CHARS) {
  let s = '';
  for (let i = 0; i < length; ++i) s += r.pick(pool);
  return s;
}

// ---- Formats ------------------------------------------------------------------------------------

// Values every validator under test accepts.
const GOOD = {
  email: ['user@example.com', 'first.last@example.org', 'a+tag@sub.example.co.uk', 'x@y.io', "o'brien@example.ie",
          'USER_1@EXAMPLE.COM', 'a@b.cd', 'name-123@mail-server.example.net', '{x}|~@example.com'],
  uri: ['https://example.com/', 'https://example.com/path?q=1#frag', 'urn:isbn:0451450523', 'mailto:user@example.com',
        'http://[::1]:8080/x', 'ftp://user@ftp.example.com/pub/file.txt', 'tel:+1-201-555-0123',
        'https://example.com/%7Euser', 'file:///etc/hosts', 'news:comp.lang.c', 'http://192.168.0.1:80/a;b?c=d&e=f',
        'HTTPS://EXAMPLE.COM/A', 'https://example.com/a/../b/./c', 'x-custom+scheme.v1:opaque'],
};

// Values that break the format, or sit on its edge; some of them the validators judge differently.
const PROBES = {
  email: ['user@', '@example.com', 'user@@example.com', 'user@localhost', 'user.@example.com', '.user@example.com',
          'us..er@example.com', 'a'.repeat(65) + '@example.com', 'user@' + 'a'.repeat(64) + '.com',
          'ü@example.com', 'user@exämple.com', 'user@exa_mple.com', 'user@-example.com', 'user@example-.com',
          'user @example.com', '"a b"@example.com', 'user@[127.0.0.1]', 'user@example.com.', 'user@example..com',
          'user@example', 'userexample.com', '', ' user@example.com', 'user@example.com\n', 'user@1.2',
          'a/b=c@example.com', 'user@sub.example', 'user@example.c', 'x@a-b.c-d', 'user@xn--bcher-kva.example',
          'user+@example.com', '"quoted"@example.com', 'a'.repeat(64) + '@example.com', 'user@' + 'a'.repeat(63) + '.com',
          'a'.repeat(64) + '@' + ('b'.repeat(63) + '.').repeat(3) + 'c'.repeat(60), 'user@example.com@example.com'],
  uri: ['example.com', '/relative/path', '//example.com/x', 'http://exa mple.com', 'http://example.com/ä', 'http://[::1',
        '1http://x', 'http://example.com:port/', 'http://%zz', 'http:', 'a:b', 'http:////x', 'http://[fe80::1%25eth0]/',
        'http://[v1.x]/', 'x:\\path', 'http://[1:2:3:4:5:6:7:8:9]/', 'http://[::ffff:1.2.3.256]/',
        'http://example.com/#a#b', 'http://example.com/?a=[b]', 'http://example.com/a[b]', 'http://example.com:/',
        'http://:80/', 'http://ex_ample.com/', 'http://user@@host/', '', ' https://example.com/', 'https://example.com/ ',
        'ht~tp://example.com/', 'https://exa%41mple.com/', 'https://example.com/%', 'https://example.com/%4', 'urn:', 'a:',
        'http://example.com/path with space', 'https://example.com/?q=a%20b', 'https://example.com/#', 'https://example.com/?',
        'https://例え.jp/', 'http://[::1]:/', 'http://[::]/', 'http://[1::2::3]/', 'http://[::1]x/', 'http://127.0.0.1:99999/',
        'foo://user:pa:ss@host/', 'http://host:80:80/', 'http://example.com/a\\b', 'http://example.com/"q"',
        'http://example.com/<a>', 'http://example.com/{a}', 'http://example.com/a|b', 'http://example.com/a^b',
        'http://example.com/a`b', 'http://[vZ.x]/', 'http://[v1.%41]/', 'http://[v.x]/', 'http://[1:2:3:4:5:6:7::]/',
        'http://[1::2:3:4:5:6:7:8]/', 'http://[::01.2.3.4]/', 'http://[::1.2.3.4]/', 'http://[]/', 'https://use:p?w@example.com/',
        'http://12.1:68.0.1/', 'https://example.com:8.080/', 'http:/[v7.fe80::a+en1]/'],
  date: ['2023-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '2024-1-01', '24-01-01', '2024/01/01', '1900-02-29',
         '2024-01-01T00:00:00Z', '2024-01-32', '2024-06-00', ' 2024-01-01', '2024-01-01 ', '', '20240101',
         '٢٠٢٤-01-01', '+2024-01-01', '0000-02-29', '0000-01-01', '2100-02-29', '2400-02-29', '9999-12-31', '2024-02-30',
         '2024-11-31', '2024-1a-01', '2024-01-01\n'],
  'date-time': ['2024-01-01T12:00:00', '2024-01-01\t12:00:00Z', '2024-01-01T12:00:00.Z', '2024-01-01T12:00:00+0530',
                '2024-01-01T12:00:00+05', '2024-01-01T12:00Z', '2024-01-01T12:59:60Z', '2024-01-01T24:00:00Z',
                '2024-01-01T12:00:00+24:00', '2023-02-29T12:00:00Z', '2024-01-01T12:60:00Z', '2024-01-01T23:59:60+00:30',
                '2024-01-01T12:00:00+01:60', '2024-01-01', '2024-01-01T12:00:00ZZ', '2024-01-01X12:00:00Z',
                '2024-13-01T12:00:00Z', '2024-01-01T1:00:00Z', '2024-01-01T12:00:00 Z', '', '0000-01-01T00:00:00+01:00',
                '0000-02-29T12:00:00Z', '9999-12-31T23:59:59-23:59', '2016-12-31T23:59:60Z', '2017-01-01T05:29:60+05:30',
                '2016-12-31T23:59:60+00:00', '2016-12-31T22:59:60-01:00', '2016-12-31T23:59:60.5Z',
                '2024-01-01T12:00:00.000+00:00', '2024-01-01T12:00:00,5Z', '2024-01-01T12:00:00.5+05', '2024-01-01T12:00:00.+01:00',
                '2024-01-01T12:00:00Z\n', '2024-01-01\n12:00:00Z', '2024-01-01T12:00:00-24:00', '2024-01-01T12:00:00+05:3', '2024-01-01T12:00:00+5:30'],
};

// Date-times with a fraction of a second: text Ajv accepts, and a sys_seconds field does not hold.
const FRACTIONS = ['2024-01-01T12:00:00.5Z', '2024-02-29T23:59:59.999+01:00', '2024-06-30T08:15:30.000001Z',
                   '2025-12-31T00:00:00.1-05:00', '2024-01-01t12:00:00.25z'];

function daysIn(year, month) {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 ? (leap ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}
const pad = (n, w = 2) => String(n).padStart(w, '0');

function randomDate(r) {
  if (r.chance(0.1)) return r.pick(['2024-02-29', '2000-02-29', '1999-12-31', '2024-01-01', '0001-01-01', '9999-12-31']);
  const y = r.int(1900, 2100), m = r.int(1, 12);
  return `${pad(y, 4)}-${pad(m)}-${pad(r.int(1, daysIn(y, m)))}`;
}

function randomDateTime(r) {
  if (r.chance(0.08)) return r.pick(['2016-12-31T23:59:60Z', '2017-01-01T05:29:60+05:30', '2024-01-01T12:00:00.000Z',
                                     '1970-01-01T00:00:00Z', '2024-02-29T12:00:00-00:00', '2024-01-01T12:00:00+23:59']);
  const date = randomDate(r);
  const sep = r.pick(['T', 'T', 'T', 't', ' ']);
  const time = `${pad(r.int(0, 23))}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))}`;
  const zero = r.chance(0.1) ? '.' + '0'.repeat(r.int(1, 6)) : '';
  const sign = r.pick(['+', '-']);
  const zone = r.pick(['Z', 'Z', 'z', `${sign}${pad(r.int(0, 14))}:${pad(r.pick([0, 30, 45]))}`]);
  return date + sep + time + zero + zone;
}

function formatValue(r, format, minLength, maxLength) {
  if (format === 'date') return randomDate(r);
  if (format === 'date-time') return randomDateTime(r);
  const fits = GOOD[format].filter((s) => codePoints(s) >= (minLength ?? 0) && codePoints(s) <= (maxLength ?? Infinity));
  return r.pick(fits);
}

// A value of the format with one to three characters inserted, removed or replaced.
const FUZZ_CHARS = {
  email: [...'@.-_+%!#~ aZ9"[]()'],
  uri: [...':/?#[]@!$&\'()*+,;=%-._~ 09afAFzZv'],
  date: [...'0123456789-:T '],
  'date-time': [...'0123456789-:.TtZz+ '],
};
const FUZZ_SEEDS = {
  email: GOOD.email,
  uri: [...GOOD.uri, 'https://user:pw@example.com:8080/path/a?q=1&r=2#frag', 'http://[2001:db8::7]/c=GB?objectClass?one',
        'http://[v7.fe80::a+en1]/', 'http://[::ffff:192.0.2.1]/'],
  date: ['2024-02-29', '1999-12-31', '2023-01-31'],
  'date-time': ['2024-02-29T23:59:59+01:00', '2016-12-31T23:59:60Z', '2024-01-01t12:00:00.000z', '2024-06-30 08:15:30-05:30'],
};
function fuzzFormat(r, format) {
  const s = [...r.pick(FUZZ_SEEDS[format])];
  for (let k = r.int(1, 3); k > 0; --k) {
    const at = r.int(0, s.length), op = r.next();
    if (op < 0.4) s.splice(at, 0, r.pick(FUZZ_CHARS[format]));
    else if (op < 0.7) s.splice(at, 1);
    else s[Math.min(at, s.length - 1)] = r.pick(FUZZ_CHARS[format]);
  }
  return s.join('');
}

// ---- What each property accepts, from its schema and its C++ type ------------------------------

function describe(name, prop, range) {
  const m = { name, prop, range };
  if (prop.type === 'boolean') m.kind = 'boolean';
  else if (prop.type === 'integer') {
    m.kind = 'integer';
    m.lo = prop.minimum !== undefined ? BigInt(Math.ceil(prop.minimum)) : BigInt(range.min);
    m.hi = prop.maximum !== undefined ? BigInt(Math.floor(prop.maximum)) : BigInt(range.max);
    m.typeLo = BigInt(range.min);
    m.typeHi = BigInt(range.max);
  } else if (prop.type === 'number') {
    m.kind = 'number';
    m.lo = prop.minimum ?? range.min;
    m.hi = prop.maximum ?? range.max;
    m.typeMax = range.max;
  } else if (prop.type === 'array') {
    m.kind = 'multi';
    m.choices = prop.items.enum ?? prop.items.anyOf.map((o) => o.const);
    m.titles = (prop.items.anyOf ?? []).map((o) => o.title).filter((t) => !m.choices.includes(t));
    m.minItems = prop.minItems ?? 0;
    m.maxItems = prop.maxItems;
  } else if (prop.enum || prop.oneOf) {
    m.kind = 'enum';
    m.choices = prop.enum ?? prop.oneOf.map((o) => o.const);
    m.titles = (prop.oneOf ?? []).map((o) => o.title).filter((t) => !m.choices.includes(t));
  } else {
    m.kind = 'string';
    m.format = prop.format;
    m.minLength = prop.minLength;
    m.maxLength = prop.maxLength;
  }
  return m;
}

// A random value the property accepts.
function validValue(r, m) {
  switch (m.kind) {
    case 'boolean': return r.chance(0.5);
    case 'integer': {
      let n;
      const roll = r.next();
      if (roll < 0.25) n = r.pick([m.lo, m.hi, m.lo + 1n, m.hi - 1n, 0n].filter((x) => x >= m.lo && x <= m.hi));
      else if (roll < 0.75) {
        const lo = m.lo > -1000n ? m.lo : -1000n, hi = m.hi < 1000n ? m.hi : 1000n;
        n = lo <= hi ? r.big(lo, hi) : m.lo;
      } else n = r.big(m.lo, m.hi);
      if (n >= -TWO53 && n <= TWO53 && r.chance(0.15)) return new Raw(wholeFloatText(n, r));
      return new Raw(n);
    }
    case 'number': {
      const roll = r.next();
      let x;
      if (roll < 0.2) x = r.pick([m.lo, m.hi, nextUp(m.lo), nextDown(m.hi), 0, -0, 1, 0.1].filter((v) => v >= m.lo && v <= m.hi));
      else if (roll < 0.7) {
        const lo = Math.max(m.lo, -1e6), hi = Math.min(m.hi, 1e6);
        x = lo <= hi ? lo + r.next() * (hi - lo) : m.lo;
        if (r.chance(0.3)) x = Math.round(x);
        if (x < m.lo || x > m.hi) x = m.lo;
      } else x = m.lo + r.next() * (m.hi / 2 - m.lo / 2) * 2;  // halved: the span may pass DBL_MAX
      if (!Number.isFinite(x)) x = m.hi;
      return Number.isInteger(x) && Math.abs(x) < 1e15 && r.chance(0.3) ? new Raw(x.toFixed(1)) : x;
    }
    case 'enum': return r.pick(m.choices);
    case 'multi': {
      const most = m.maxItems ?? m.choices.length + 1;
      const n = r.int(m.minItems, most);
      const out = [];
      for (let i = 0; i < n; ++i) out.push(r.pick(m.choices));  // repeats are allowed: no uniqueItems
      return out;
    }
    default: {
      if (m.format) return formatValue(r, m.format, m.minLength, m.maxLength);
      const lo = m.minLength ?? 0, hi = m.maxLength ?? 24;
      const n = r.chance(0.2) ? r.pick([lo, hi]) : r.int(lo, Math.min(hi, lo + 30));
      return text(r, n, r.chance(0.3) ? WIDE : CHARS);
    }
  }
}

function validContent(r, models, extraKeys) {
  const content = {};
  for (const m of models) {
    if (m.required || r.chance(0.6)) content[m.name] = validValue(r, m);
  }
  if (r.chance(extraKeys)) content[r.pick(UNKNOWN_KEYS)] = r.pick(ANY_VALUES)();
  return content;
}

const UNKNOWN_KEYS = ['extra', 'unknown', '', 'a/b', 'x~y', 'é', 'VALUE', 'constructor', ' '];
const ANY_VALUES = [() => null, () => 1, () => 'x', () => true, () => [], () => ({}), () => ({ nested: [1, 'two'] }),
                    () => new Raw('1e3'), () => -0.5];

// Values of the wrong JSON type for a property of kind `kind`.
function wrongTypes(m) {
  const all = {
    boolean: [true, false],
    integer: [new Raw('1'), new Raw('0')],
    number: [new Raw('2.5')],
    string: ['1', 'true', ''],
    array: [[], ['x']],
    object: [{}, { value: 1 }],
  };
  const own = { boolean: ['boolean'], integer: ['integer', 'number'], number: ['integer', 'number'],
                string: ['string'], enum: ['string'], multi: ['array'] }[m.kind];
  const out = [];
  for (const [t, values] of Object.entries(all)) if (!own.includes(t)) out.push(...values);
  if (m.kind === 'boolean') out.push('true', 'false', new Raw('1'), new Raw('0'));
  if (m.kind === 'integer' || m.kind === 'number') out.push('42', '1e3', '');
  return out;
}

// ---- Mutations: each returns [tag, value] (value DROP removes the key) -----------------------

function mutations(m) {
  const list = [
    ['drop', () => DROP],
    ['null', () => null],
    ['wrong-type', (r) => r.pick(wrongTypes(m))],
  ];
  const add = (tag, f) => list.push([tag, f]);
  switch (m.kind) {
    case 'integer': {
      add('fraction', (r) => new Raw(`${r.pick([m.lo, m.hi, 0n, 1n, 17n, m.lo + 1n])}.${r.pick(['5', '25', '0001', '9999'])}`));
      add('fraction', (r) => r.pick([0.5, -0.5, 1.5, 1e-7, 17.999999999999996, 130.00000000000003]));
      add('whole-float', (r) => new Raw(r.pick(['30.0', '1e3', '1E2', '1e+1', '0.0', '-0.0', '-0', '100e-2', '1.0e1', '5e0',
                                                 '127.0', '128.0', '255.0', '256.0', '1.30e2', '1.31e2', '18.0', '17.0'])));
      add('below-minimum', () => new Raw(m.lo - 1n));
      add('above-maximum', () => new Raw(m.hi + 1n));
      add('below-minimum', (r) => new Raw(wholeFloatText(m.lo - r.pick([1n, 10n, 100n]), r)));
      add('above-maximum', (r) => new Raw(wholeFloatText(m.hi + r.pick([1n, 10n, 100n]), r)));
      add('edge', (r) => new Raw(r.pick([m.lo, m.hi])));
      add('type-range', (r) => new Raw(r.pick([m.typeHi + 1n, m.typeLo - 1n, 3000000000n, -3000000000n, 2n ** 63n, 2n ** 64n,
                                                -(2n ** 63n) - 1n, 10n ** 20n, 4294967296n, 9007199254740993n])));
      add('type-range', (r) => new Raw(r.pick(['1e19', '1e20', '-1e19', '1e300', '-1e300', '3e9', '2147483648.0',
                                                '-2147483649.0', '4294967296.0', '1.8446744073709552e19', '9.3e18'])));
      add('negative-zero', (r) => new Raw(r.pick(['-0', '-0.0', '0e0', '-0e-5'])));
      break;
    }
    case 'number': {
      add('below-minimum', (r) => r.pick([nextDown(m.lo), m.lo - 1, m.lo - 0.5, m.lo * 2 - 1]));
      add('above-maximum', (r) => r.pick([nextUp(m.hi), m.hi + 1, m.hi + 0.5, m.hi * 2 + 1]));
      add('edge', (r) => r.pick([m.lo, m.hi, nextUp(m.lo), nextDown(m.hi)]));
      add('whole-float', (r) => new Raw(r.pick(['30.0', '1e3', '1E2', '0.5e0', '99.5', '99.50', '995e-1', '0.5', '5e-1',
                                                 '1e-7', '1.0e-7', '1.00000000000000008e-7', '18', '18.0', '17.999999999999996'])));
      add('type-range', (r) => new Raw(r.pick(['3.4028235e38', '-3.4028235e38', '3.4028234663852886e38', '1e39', '-1e39',
                                                '1e300', '-1e300', '1.7976931348623157e308', '5e-324', '1e-320'])));
      add('negative-zero', (r) => new Raw(r.pick(['-0', '-0.0', '0e0', '-0e-5'])));
      break;
    }
    case 'string': {
      const lo = m.minLength ?? 0, hi = m.maxLength;
      if (lo > 0) add('too-short', (r) => (m.format ? shortFormat(r, m, lo - 1) : text(r, lo - 1, r.pick([CHARS, WIDE]))));
      if (hi !== undefined) {
        add('too-long', (r) => (m.format ? longFormat(r, m, hi + 1) : text(r, hi + 1, r.pick([CHARS, WIDE, ['😀'], ['é']]))));
        add('length-edge', (r) => (m.format ? longFormat(r, m, hi) : text(r, hi, r.pick([['😀'], ['é'], ['中'], WIDE]))));
        add('combining', () => 'e\u0301'.repeat(Math.ceil((hi + 1) / 2)));  // 2 code points each
        add('combining', () => 'e\u0301'.repeat(Math.floor(hi / 2)));
      }
      if (lo > 0) add('length-edge', (r) => (m.format ? shortFormat(r, m, lo) : text(r, lo, r.pick([['😀'], ['é'], WIDE]))));
      if (m.format) {
        add('format-probe', (r) => r.pick(PROBES[m.format]));
        if (m.format === 'date-time') add('fraction-of-second', (r) => r.pick(FRACTIONS));
      }
      break;
    }
    case 'enum': {
      add('not-offered', (r) => r.pick(['', 'Purple', ' ' + m.choices[0], m.choices[0] + ' ', m.choices[0].toLowerCase(),
                                        m.choices[0].toUpperCase(), '#ff0000', 'red', 'gb', 'URGENT']));
      if (m.titles.length) add('title', (r) => r.pick(m.titles));
      add('wrong-type', (r) => r.pick([[m.choices[0]], { const: m.choices[0] }, new Raw('0')]));
      break;
    }
    case 'multi': {
      const most = m.maxItems ?? m.choices.length + 1;
      if (m.maxItems !== undefined) add('too-many', (r) => Array.from({ length: m.maxItems + 1 }, () => r.pick(m.choices)));
      if (m.minItems > 0) add('too-few', () => []);
      add('unknown-item', (r) => {
        const items = Array.from({ length: r.int(Math.max(1, m.minItems), Math.max(1, most)) }, () => r.pick(m.choices));
        items[r.int(0, items.length - 1)] = r.pick(['Purple', '', m.choices[0].toLowerCase(), ...m.titles]);
        return items;
      });
      if (m.titles.length) add('title', (r) => [r.pick(m.titles)]);
      add('item-type', (r) => [r.pick([null, new Raw('1'), true, [m.choices[0]], { x: 1 }])]);
      add('not-a-list', () => m.choices[0]);
      add('repeats', () => [m.choices[0], m.choices[0]]);
      break;
    }
    default: break;
  }
  return list;
}

function shortFormat(r, m, n) {
  return formatValue(r, m.format).slice(0, Math.max(0, n));
}

// An e-mail address or URI of exactly n code points, where that can be made.
function longFormat(r, m, n) {
  if (m.format === 'email') {
    const domain = '@example.com';
    const local = text(r, Math.max(1, n - domain.length), ['a', 'b', 'c', '1', '.x']);
    return (local.startsWith('.') ? 'a' + local.slice(1) : local).slice(0, Math.max(1, n - domain.length)).replace(/\.$/, 'z') + domain;
  }
  if (m.format === 'uri') return 'https://example.com/' + 'p'.repeat(Math.max(0, n - 20));
  return formatValue(r, m.format);
}

// Number texts tried once on every integer and number property, exactly as written here.
const INTEGER_TEXTS = {
  'whole-float': ['30.0', '1e3', '1E2', '1e+1', '0.0', '100e-2', '1.0e1', '5e0', '127.0', '128.0', '255.0', '256.0',
                  '1.30e2', '1.31e2', '18.0', '17.0', '10.0', '11.0', '5000.0', '5001.0', '130.00000000000001',
                  '17.999999999999999', '65535.0', '65536.0', '-129.0', '-128.0'],
  'fraction': ['0.5', '-0.5', '1.5', '1e-7', '17.999999999999996', '130.00000000000003', '10.5', '0.000001', '2.5e0',
               '1.25e1', '-1.5e-3', '4999.9', '9007199254740993.5'],
  'type-range': ['2147483647', '2147483648', '-2147483648', '-2147483649', '3000000000', '-3000000000', '4294967295',
                 '4294967296', '9223372036854775807', '9223372036854775808', '-9223372036854775808', '-9223372036854775809',
                 '18446744073709551615', '18446744073709551616', '-1', '123456789012345678901234567890', '1e19', '1e20',
                 '-1e19', '1e300', '-1e300', '3e9', '2147483648.0', '-2147483649.0', '4294967296.0', '9.3e18',
                 '1.8446744073709552e19', '9007199254740993', '-9007199254740993'],
  'negative-zero': ['-0', '-0.0', '0e0', '-0e-5'],
};
const NUMBER_TEXTS = {
  'whole-float': ['30.0', '1e3', '1E2', '0.5e0', '99.5', '99.50', '995e-1', '0.5', '5e-1', '1e-7', '1.0e-7',
                  '1.00000000000000008e-7', '1.0000000000000002e-7', '9.999999999999999e-8', '18', '18.0',
                  '17.999999999999996', '17.999999999999999', '0.49999999999999994', '99.50000000000001', '100.0',
                  '100.00000000000001', '-1e-320'],
  'type-range': ['3.4028235e38', '-3.4028235e38', '3.4028234663852886e38', '-3.4028234663852886e38', '3.4028234663852887e38',
                 '1e39', '-1e39', '1e300', '-1e300', '-1.0000000000000001e300', '1.7976931348623157e308',
                 '-1.7976931348623157e308', '5e-324', '1e-320', '18446744073709551616', '-9223372036854775809',
                 '123456789012345678901234567890', '1e-400', '-1e-400'],
  'negative-zero': ['-0', '-0.0', '0e0', '-0e-5'],
};

const FUZZED_PER_FIELD = 30;

// Every edge of a property, each to be tried once in an otherwise valid answer: [tag, value],
// the value being DROP (remove the key), a value, or a function of the PRNG that makes one.
function edges(m) {
  const out = [['drop', DROP], ['null', null]];
  for (const v of wrongTypes(m)) out.push(['wrong-type', v]);
  const texts = (table) => {
    for (const [tag, list] of Object.entries(table)) for (const t of list) out.push([tag, new Raw(t)]);
  };
  switch (m.kind) {
    case 'integer':
      for (const n of [m.lo, m.hi, m.lo - 1n, m.hi + 1n, m.typeLo, m.typeHi, m.typeLo - 1n, m.typeHi + 1n])
        out.push(['edge', new Raw(n)]);
      texts(INTEGER_TEXTS);
      break;
    case 'number':
      for (const x of [m.lo, m.hi, nextUp(m.lo), nextDown(m.lo), nextUp(m.hi), nextDown(m.hi)]) out.push(['edge', x]);
      texts(NUMBER_TEXTS);
      break;
    case 'string': {
      const lengths = new Set([0, 1, m.minLength, m.maxLength].filter((n) => n !== undefined));
      if (m.minLength) lengths.add(m.minLength - 1);
      if (m.maxLength !== undefined) lengths.add(m.maxLength + 1);
      for (const n of lengths)
        for (const c of ['a', 'é', '中', '😀', '\u{10FFFF}']) out.push([`length-${n}`, c.repeat(n)]);
      if (m.maxLength !== undefined) {
        out.push(['combining', 'e\u0301'.repeat(Math.ceil((m.maxLength + 1) / 2))]);
        out.push(['combining', 'e\u0301'.repeat(Math.floor(m.maxLength / 2))]);
      }
      if (m.format) {
        for (const v of GOOD[m.format] ?? []) out.push(['good-format', v]);
        for (const v of PROBES[m.format]) out.push(['format-probe', v]);
        if (m.format === 'date-time') for (const v of FRACTIONS) out.push(['fraction-of-second', v]);
        for (let i = 0; i < FUZZED_PER_FIELD; ++i) out.push(['format-fuzz', (r) => fuzzFormat(r, m.format)]);
      }
      break;
    }
    case 'enum':
      for (const v of m.choices) out.push(['choice', v]);
      for (const v of m.titles) out.push(['title', v]);
      for (const v of ['', 'Purple', ' ' + m.choices[0], m.choices[0] + ' ', m.choices[0].toLowerCase(),
                       m.choices[0].toUpperCase(), [m.choices[0]], { const: m.choices[0] }])
        out.push(['not-offered', v]);
      break;
    case 'multi':
      out.push(['items', []], ['repeats', [m.choices[0], m.choices[0]]], ['not-a-list', m.choices[0]]);
      for (const v of m.choices) out.push(['choice', [v]]);
      for (const v of m.titles) out.push(['title', [v]]);
      out.push(['items', m.choices.slice()], ['items', [...m.choices, m.choices[0]]]);
      if (m.maxItems !== undefined) out.push(['too-many', Array.from({ length: m.maxItems + 1 }, (_, i) => m.choices[i % m.choices.length])]);
      for (const v of ['Purple', '', m.choices[0].toLowerCase(), null, new Raw('1'), true, [m.choices[0]]])
        out.push(['unknown-item', [m.choices[0], v]]);
      break;
    default: break;
  }
  return out;
}

// Whole contents that are no object at all, or an empty one.
const NOT_OBJECTS = ['null', '[]', '"text"', '1', 'true', '[{}]', '{}'];

// ---- The cases ------------------------------------------------------------------------------

// Returns [{form, content, text, tag}], text being the JSONL line's content.
export function generateCases(schemas, ranges, { seed = 20250131, attempts = 400 } = {}) {
  const cases = [];
  for (const [form, schema] of Object.entries(schemas)) {
    const r = prng(seed ^ [...form].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261));
    const required = new Set(schema.required ?? []);
    const models = Object.entries(schema.properties).map(([name, prop]) => {
      const m = describe(name, prop, (ranges[form] ?? {})[name]);
      m.required = required.has(name);
      return m;
    });
    const seen = new Set();
    const push = (content, tag, raw) => {
      const ascii = raw === undefined && r.chance(0.1);
      const textForm = raw ?? serialize(content, ascii);
      if (seen.has(textForm)) return;
      seen.add(textForm);
      cases.push({ form, content, text: textForm, tag: ascii ? tag + ' (escaped)' : tag });
    };
    for (const t of NOT_OBJECTS) push(JSON.parse(t), 'whole:' + t, t);
    // Every edge of every property, each in an otherwise valid answer.
    for (const m of models) {
      for (const [tag, make] of edges(m)) {
        const value = typeof make === 'function' ? make(r) : make;
        const content = validContent(r, models, 0);
        if (value === DROP) delete content[m.name];
        else content[m.name] = value;
        push(content, `${tag}@${m.name}`);
      }
      // A key given twice: JSON.parse and nlohmann::json both keep the last.
      const good = validContent(r, models, 0);
      good[m.name] = validValue(r, m);
      const bad = edges(m).find(([tag]) => tag === 'wrong-type')[1];
      const rest = serialize(good).slice(1);
      push(JSON.parse(`{${JSON.stringify(m.name)}:${serialize(bad)},${rest}`), `duplicate-key@${m.name} (last valid)`,
           `{${JSON.stringify(m.name)}:${serialize(bad)},${rest}`);
      const withBad = `${serialize(good).slice(0, -1)},${JSON.stringify(m.name)}:${serialize(bad)}}`;
      push(JSON.parse(withBad), `duplicate-key@${m.name} (last invalid)`, withBad);
    }
    for (let i = 0; i < attempts; ++i) {
      const base = validContent(r, models, 0.25);
      if (i % 5 === 0) {
        push(base, 'valid');
        continue;
      }
      const content = { ...base };
      const tags = [];
      const times = r.chance(0.15) ? 2 : 1;
      for (let k = 0; k < times; ++k) {
        const m = r.pick(models);
        const [tag, make] = r.pick(mutations(m));
        const value = make(r);
        if (value === DROP) delete content[m.name];
        else content[m.name] = value;
        tags.push(`${tag}@${m.name}`);
      }
      if (r.chance(0.1)) content[r.pick(UNKNOWN_KEYS)] = r.pick(ANY_VALUES)();
      push(content, tags.join('+'));
    }
  }
  return cases;
}

export function casesText(cases) {
  return cases.map((c) => `{"form":${JSON.stringify(c.form)},"content":${c.text}}`).join('\n') + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [schemasPath, rangesPath, seed, attempts] = process.argv.slice(2);
  if (!rangesPath) {
    console.error('usage: node generate.mjs schemas.json ranges.json [seed] [attempts-per-form]');
    process.exit(2);
  }
  const cases = generateCases(JSON.parse(readFileSync(schemasPath, 'utf8')), JSON.parse(readFileSync(rangesPath, 'utf8')),
                              { seed: seed ? Number(seed) : undefined, attempts: attempts ? Number(attempts) : undefined });
  process.stdout.write(casesText(cases));
}
