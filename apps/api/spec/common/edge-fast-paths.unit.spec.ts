import type { ArgumentMetadata } from '@nestjs/common';
import { createHash } from 'node:crypto';
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
});
