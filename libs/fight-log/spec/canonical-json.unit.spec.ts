import fc from 'fast-check';
import canonicalize from 'canonicalize';
import { canonicalJson } from '../src/canonical-json';
import { eventHash, GENESIS_HASH } from '../src/hash-chain';

// The `canonicalize` package (by an author of RFC 8785) wrote every hash chain stored before this one;
// it stays as the oracle: any text the two write differently would break every stored log's audit.
describe('canonicalJson: RFC 8785 canonical JSON, as canonicalize writes it', () => {
  it('writes the RFC 8785 section 3.2.2 sample as the RFC does', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    ) as unknown;
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units, integer-like keys too', () => {
    expect(
      canonicalJson({ '\u20ac': 1, $: 2, '\ud83d\ude00': 3, '\ufb33': 4, '10': 5, '2': 6, '1a': 7 }),
    ).toBe('{"$":2,"10":5,"1a":7,"2":6,"\u20ac":1,"\ud83d\ude00":3,"\ufb33":4}');
  });

  it('writes every JSON value as canonicalize does, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary', maxDepth: 6 }), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves undefined members out and writes undefined array items as null, as canonicalize does', () => {
    const value = { a: undefined, b: [1, undefined, { c: undefined, d: new Date(0) }], e: -0 };
    expect(canonicalJson(value)).toBe(canonicalize(value));
    expect(canonicalJson(value)).toBe('{"b":[1,null,{"d":"1970-01-01T00:00:00.000Z"}],"e":0}');
    expect(canonicalJson(undefined)).toBeUndefined();
  });

  it('refuses what JSON cannot carry, and a cycle', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const bad of [NaN, Infinity, { n: -Infinity }, 1n, { f: () => 1 }, cycle])
      expect(() => canonicalJson(bad)).toThrow();
  });

  it('keeps the hash chain of an event as it was', () => {
    const event = {
      fightId: 'f1',
      seq: 1,
      type: 'GmNoteAdded',
      v: 1,
      at: '2026-12-03T10:00:00.000Z',
      actor: 'gm',
      commandId: 'c1',
      data: { text: 'Ünïcödé "quoted"', combatantId: undefined, rolls: [3, 5.5, -0] },
    };
    const { createHash } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    expect(eventHash(GENESIS_HASH, event)).toBe(
      createHash('sha256').update(canonicalize(event)!).digest('hex'),
    );
  });
});
