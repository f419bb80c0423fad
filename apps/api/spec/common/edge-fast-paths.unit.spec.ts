import type { ArgumentMetadata } from '@nestjs/common';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { viewText } from '@app/fights';
import { withViewText } from '../../src/common/fight-etag';
import { FightQueryDto } from '../../src/common/dto';
import { weakETag } from '../../src/common/http-reply';
import { validationPipe } from '../../src/common/validation';
import { securityHeaders } from '../../src/create-app';

const query: ArgumentMetadata = { type: 'query', metatype: FightQueryDto, data: undefined };

describe('work done once instead of per request', () => {
  it('an empty query is judged once per DTO, and each request gets its own copy', async () => {
    const first = (await validationPipe.transform({}, query)) as FightQueryDto;
    expect(first).toBeInstanceOf(FightQueryDto);
    first.minSeq = 7;
    const second = (await validationPipe.transform({}, query)) as FightQueryDto;
    expect(second).toBeInstanceOf(FightQueryDto);
    expect(second).not.toBe(first);
    expect(second.minSeq).toBeUndefined();
  });

  it('a query with parameters is still judged every time', async () => {
    expect(await validationPipe.transform({ minSeq: '3' }, query)).toMatchObject({ minSeq: 3 });
    await expect(validationPipe.transform({ minSeq: 'x' }, query)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'minSeq',
    });
    await expect(validationPipe.transform({ nope: '1' }, query)).rejects.toMatchObject({ field: 'nope' });
  });

  it('weak ETags keep the form Express gave: byte length in hex, 27 characters of SHA-1 in base64', () => {
    expect(weakETag('')).toBe('W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"');
    const text = '{"name":"Ærø ✓"}';
    const sha1 = createHash('sha1').update(text).digest('base64').slice(0, 27);
    expect(weakETag(text)).toBe(`W/"${Buffer.byteLength(text).toString(16)}-${sha1}"`);
    expect(weakETag(Buffer.from(text))).toBe(weakETag(text));
    expect(Buffer.byteLength(text)).not.toBe(text.length);
  });

  it("helmet's headers are computed once, with the service's CSP and without HSTS", () => {
    const headers = securityHeaders({
      contentSecurityPolicy: { useDefaults: true, directives: { upgradeInsecureRequests: null } },
      strictTransportSecurity: false,
    });
    expect(headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
    });
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(headers['x-powered-by']).toBeUndefined();
  });

  it('an answer with a fight view is JSON.stringify byte for byte, whatever it holds', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.constant(undefined))),
        ),
        fc.jsonValue(),
        (value, view) => {
          expect(withViewText(value)).toBe(JSON.stringify(value));
          const answer = {
            fightId: 'f-1',
            seq: 3,
            events: [{ seq: 3, note: 'Ærø ✓' }],
            view,
            replayed: false,
          };
          expect(withViewText(answer)).toBe(JSON.stringify(answer));
        },
      ),
      { numRuns: 500 },
    );
    const odd = { a: undefined, f: () => 1, view: { toJSON: () => 'v' }, n: null, d: new Date(0) };
    expect(withViewText(odd)).toBe(JSON.stringify(odd));
    expect(withViewText({ toJSON: () => [1] })).toBe('[1]');
    expect(withViewText({})).toBe('{}');
  });

  it("a view's text is written once and shared by every answer that carries that view", () => {
    const view = { seq: 2, headHash: 'ab', combatants: [{ id: 'mira', wounds: 1 }] };
    const text = viewText(view);
    expect(text).toBe(JSON.stringify(view));
    expect(viewText(view)).toBe(text);
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      expect(withViewText({ fightId: 'f', seq: 2, view })).toBe(`{"fightId":"f","seq":2,"view":${text}}`);
      expect(stringify.mock.calls.map(([x]) => x)).not.toContain(view);
    } finally {
      stringify.mockRestore();
    }
  });

  it('an answer object sent again (a GET of a state the read store holds) is written once', () => {
    const answer = { fightId: 'f', seq: 4, view: { seq: 4, headHash: 'cd', round: 2 } };
    const text = withViewText(answer);
    expect(text).toBe(JSON.stringify(answer));
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      expect(withViewText(answer)).toBe(text);
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
    // Another object of the same state is another answer: written for itself.
    const again = { ...answer, seq: 5 };
    expect(withViewText(again)).toBe(JSON.stringify(again));
  });
});
