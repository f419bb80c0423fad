/**
 * What a fight log's text says that its parsed value no longer does. JSON.parse reads `4.0000000000000001`
 * as 4, `4e0` as 4, `-0` as 0 in every hash (RFC 8785 writes it `0`) and keeps the last of two members of
 * one name: a log changed that way hashes as the original and verified, while another reader (an exact one,
 * a first-wins one, one that tells a float from an integer) reads another log. These are read off the text.
 * The API reads every request body's nesting, members and repeated names with the same walks, so that the
 * CLI refuses a log as POST /audit/verify refuses it.
 */

/** One thing the text holds that its value hides: where (a JSON path from its record) and why. */
export interface TextProblem {
  kind: 'number' | 'duplicate' | 'string';
  /** The record (0: the document, or an NDJSON log's first line) the problem is in. */
  record: number;
  /** Its 1-based line in the text. */
  line: number;
  /** The path inside its record: `entries[3].seq`, `data.rolls[0].roll.faces[1]`. */
  path: string;
  message: string;
}

export interface TextChecks {
  numbers?: boolean;
  duplicates?: boolean;
  /** U+0000 and unpaired UTF-16 surrogates in keys and values (no engine stores them: README "Errors"). */
  strings?: boolean;
  /**
   * Only what lies inside the value at this path of a JSON document (`['variables', 'log']`: a fight log
   * that is one member of a larger request), its problems' paths named from that value.
   */
  within?: ReadonlyArray<string | number>;
}

/**
 * A number literal after `:`, `[` or `,` that JSON.stringify would not have written as it is: negative zero,
 * a fraction or an exponent, or 16 digits and more. Most logs hold none, and their text is then not walked.
 */
const SUSPECT_NUMBER = /[:[,]\s*(?:-0|-?\d+\.\d+(?:[eE][+-]?\d+)?|-?\d+[eE][+-]?\d+|-?\d{16,})\s*[,\]}]/;
/** U+0000 and lone surrogates: PostgreSQL stores neither in text (names, ids, the read models' columns), so no engine takes them. */
// eslint-disable-next-line no-control-regex -- U+0000 is what this pattern exists to find
export const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Text that may hold such a string: the character itself, or an escape of U+0000 or of a surrogate. */
// eslint-disable-next-line no-control-regex -- as UNSTORABLE
const SUSPECT_STRING = /\u0000|\\u0000|\\u[dD][89a-fA-F]|[\ud800-\udfff]/;

/** `d1d2…dn` and its exponent, without leading or trailing zeros: one key per decimal value. */
function decimalKey(literal: string): string {
  const [mantissa, exponent = '0'] = literal.replace(/^-/, '').split(/[eE]/);
  const [whole, fraction = ''] = mantissa.split('.');
  let digits = (whole + fraction).replace(/^0+/, '');
  let exp = Number(exponent) - fraction.length;
  if (digits === '') return '0';
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exp++;
  }
  return `${literal.startsWith('-') ? '-' : ''}${digits}e${exp}`;
}

/** Why a number literal is not one the service writes, or undefined when it is (JSON.stringify's own form). */
export function numberLiteralProblem(literal: string): string | undefined {
  const value = Number(literal);
  if (literal === String(value)) return undefined;
  if (!Number.isFinite(value))
    return `is written ${literal}, a number no IEEE 754 double holds (I-JSON, RFC 7493)`;
  if (Object.is(value, -0) || (value === 0 && literal.startsWith('-')))
    return `is written ${literal}, negative zero: the service never writes it, and its hash is the hash of 0`;
  if (decimalKey(literal) !== decimalKey(String(value)))
    return `is written ${literal}, with more precision than an IEEE 754 double holds: it is read as ${String(value)}, and hashes as that number (I-JSON, RFC 7493)`;
  if (Number.isInteger(value) && /[.eE]/.test(literal))
    return `is written ${literal}, a whole number in another form than its digits: the service writes ${String(value)}, and the two hash alike`;
  return undefined;
}

/** A JSON number literal, read from where one starts (`lastIndex`). */
const NUMBER = /-?[0-9]*(?:\.[0-9]*)?(?:[eE][-+]?[0-9]*)?/y;
const DUPLICATE = 'is sent more than once in its object; a member name may appear once (RFC 7493)';
const UNSTORABLE_STRING = 'holds U+0000 or an unpaired UTF-16 surrogate, which no text field may hold';

/** A member name or an array index, as in a JSON path. */
export type JsonKey = string | number;

/** `prefix` and one key more, as every field is named: `entries[3].seq`, a name alone at the top. */
export const joinKey = (prefix: string, key: JsonKey) =>
  typeof key === 'number' ? `${prefix}[${key}]` : prefix ? `${prefix}.${key}` : key;

/** The index of the quote that closes the JSON string opened at `start`. */
function stringEnd(text: string, start: number): number {
  let j = start + 1;
  for (let escaped = false; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (escaped) escaped = false;
    else if (d === 0x5c) escaped = true;
    else if (d === 0x22) break;
  }
  return j;
}

interface Frame {
  array: boolean;
  /** An object's last member name, or an array's current index. */
  key: JsonKey;
  names?: Set<string>;
}

/** A problem where the walk meets it: the index it starts at in the text, its record, its keys and why. */
interface Found {
  kind: TextProblem['kind'];
  index: number;
  record: number;
  /** Its path inside its record, or inside `within`. */
  keys: JsonKey[];
  why: string;
}

/**
 * The first problem of the kinds asked for in JSON text that parses (a document, or NDJSON: one value a
 * line), or undefined. Text that does not parse is not judged here: its parser names it.
 */
export function firstTextProblem(text: string, checks: TextChecks): TextProblem | undefined {
  const found = firstFound(text, checks);
  if (!found) return undefined;
  const path = found.keys.reduce<string>(joinKey, '');
  return {
    kind: found.kind,
    record: found.record,
    line: text.slice(0, found.index).split('\n').length,
    path,
    message: `${path || '(root)'} ${found.why}`,
  };
}

/**
 * The keys of the first member whose name its object already holds, in a JSON document that parses
 * (a name escaped, `"\u0061"`, is the name it reads as), or undefined when no name repeats.
 */
export function firstDuplicateKey(text: string): JsonKey[] | undefined {
  return firstFound(text, { duplicates: true })?.keys;
}

function firstFound(text: string, checks: TextChecks): Found | undefined {
  const wanted = {
    numbers: checks.numbers === true && SUSPECT_NUMBER.test(text),
    duplicates: checks.duplicates === true,
    strings: checks.strings === true && SUSPECT_STRING.test(text),
  };
  if (!wanted.numbers && !wanted.duplicates && !wanted.strings) return undefined;
  const within = checks.within ?? [];
  const stack: Frame[] = [];
  let record = -1;
  let expectName = false;
  const found = (kind: Found['kind'], index: number, why: string): Found => ({
    kind,
    index,
    record,
    keys: stack.slice(within.length).map((f) => f.key),
    why,
  });
  // A member name is inside the value only when its object is: one level below `within`.
  const inside = (name = false) =>
    within.length === 0 ||
    (stack.length > within.length - (name ? 0 : 1) && within.every((key, k) => stack[k].key === key));
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const j = stringEnd(text, i);
      const top = stack[stack.length - 1];
      const isName = top !== undefined && !top.array && expectName;
      if (isName || wanted.strings) {
        let value: string;
        try {
          value = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          return undefined;
        }
        if (isName) {
          top.key = value;
          expectName = false;
          if (wanted.duplicates && inside(true)) {
            top.names ??= new Set();
            if (top.names.has(value)) return found('duplicate', i, DUPLICATE);
            top.names.add(value);
          }
        }
        if (wanted.strings && inside(isName) && UNSTORABLE.test(value))
          return found('string', i, UNSTORABLE_STRING);
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      if (stack.length === 0) record++;
      stack.push({ array: c === 0x5b, key: c === 0x5b ? 0 : '' });
      expectName = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top?.array) (top.key as number)++;
      else expectName = true;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const j = i + NUMBER.exec(text)![0].length;
      if (stack.length === 0) record++;
      if (wanted.numbers && inside()) {
        const why = numberLiteralProblem(text.slice(i, j));
        if (why) return found('number', i, why);
      }
      i = j - 1;
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      // true, false, null: a bare one is a record of its own.
      if (stack.length === 0) record++;
      while (i + 1 < text.length && /[a-z]/.test(text[i + 1])) i++;
    }
  }
  return undefined;
}

/** Deepest a fight log may nest (objects and arrays), as every request body (README "Errors": BODY_TOO_DEEP). */
export const MAX_LOG_DEPTH = 64;

/** Whether JSON text nests deeper than `max` (counted outside strings, before anything recurses over it). */
export function nestsDeeperThan(text: string, max = MAX_LOG_DEPTH): boolean {
  return countMembers(text, max) === undefined;
}

/**
 * The object members in JSON text (its `:` outside strings), or undefined once it nests deeper than
 * `maxDepth` (objects and arrays, counted outside strings): one pass that reads nothing else, so text
 * nested 20,000 deep is refused before anything recurses over it. Bytes are UTF-8 (or any ASCII superset),
 * read undecoded: every byte this counts is ASCII, and no byte of a longer character is.
 */
export function countMembers(input: Uint8Array | string, maxDepth: number): number | undefined {
  let members = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < input.length; i++) {
    const c = typeof input === 'string' ? input.charCodeAt(i) : input[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x3a) members++;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return undefined;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return members;
}
