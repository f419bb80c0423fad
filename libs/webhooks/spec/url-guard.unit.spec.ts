import { ContractViolation } from '@app/rules';
import { assertSafeUrl, WEBHOOK_URL_MAX_LENGTH } from '../src/url-guard';

describe('a webhook URL (url-guard)', () => {
  it('given a URL within the maximum as sent but beyond it as stored (non-ASCII percent-encoded), then 422 INVALID_FIELD naming url', async () => {
    const raw = `https://93.184.216.34/${'é'.repeat(1500)}`;
    expect(raw.length).toBeLessThanOrEqual(WEBHOOK_URL_MAX_LENGTH);
    const refused = await assertSafeUrl(raw, false).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ContractViolation);
    expect(refused).toMatchObject({ code: 'INVALID_FIELD', field: 'url' });
    expect((refused as Error).message).toMatch(
      /^url must be at most 2000 characters as stored .*; this one is 9022$/,
    );
  });

  it('given a URL exactly at the maximum as stored, then it is taken as it is stored', async () => {
    const base = 'https://93.184.216.34/';
    const raw = `${base}${'é'.repeat(100)}${'a'.repeat(WEBHOOK_URL_MAX_LENGTH - base.length - 600)}`;
    const url = await assertSafeUrl(raw, false);
    expect(url.href).toHaveLength(WEBHOOK_URL_MAX_LENGTH);
  });
});
