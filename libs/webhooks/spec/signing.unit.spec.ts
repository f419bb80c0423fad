import { Webhook } from 'standardwebhooks';
import { DEFAULT_RETRY_SCHEDULE_MS, readWebhookConfig } from '../src/config';
import { nextAttemptAt, parseRetryAfter } from '../src/backoff';
import { signingSecrets } from '../src/dispatcher';
import { newSigningSecret, sign, webhookHeaders } from '../src/signing';
import { endpointRow } from './helpers';
import { refusedRange } from '../src/url-guard';

describe('signing (Standard Webhooks)', () => {
  it('a signature verifies with the standardwebhooks package', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const body = JSON.stringify({ type: 'WoundsApplied', data: { seq: 3 } });
    const now = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([secret], 'msg_1', now, body);
    expect(headers['webhook-signature']).toMatch(/^v1,/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('during a rotation both secrets sign and either verifies', () => {
    const [old, current] = [newSigningSecret(), newSigningSecret()];
    const body = '{"a":1}';
    const headers = webhookHeaders([current, old], 'msg_2', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(old).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
  });

  it('after several rotations each previous secret signs, newest first, until its own overlap ends', () => {
    const ep = endpointRow('e1', {
      secret: 'whsec_S2',
      previousSecrets: [
        { secret: 'whsec_S1', until: 2_000 },
        { secret: 'whsec_S0', until: 5_000 },
      ],
    });
    expect(signingSecrets(ep, 1_000)).toEqual(['whsec_S2', 'whsec_S1', 'whsec_S0']);
    expect(signingSecrets(ep, 2_000)).toEqual(['whsec_S2', 'whsec_S0']);
    expect(signingSecrets(ep, 5_000)).toEqual(['whsec_S2']);
  });

  it('signs id.timestamp.body, so a changed body fails', () => {
    const secret = newSigningSecret();
    const ts = Math.floor(Date.now() / 1000);
    expect(sign(secret, 'msg_3', ts, 'a')).not.toEqual(sign(secret, 'msg_3', ts, 'b'));
    const headers = webhookHeaders([secret], 'msg_3', ts, 'a');
    expect(() => new Webhook(secret).verify('b', headers)).toThrow();
  });
});

describe('backoff', () => {
  it('follows the retry schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up', () => {
    expect(DEFAULT_RETRY_SCHEDULE_MS).toEqual([0, 5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    const waits = [1, 2, 3, 4, 5, 6, 7].map((made) => nextAttemptAt(DEFAULT_RETRY_SCHEDULE_MS, made, 0));
    expect(waits).toEqual([5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    expect(nextAttemptAt(DEFAULT_RETRY_SCHEDULE_MS, 8, 0)).toBeUndefined();
  });

  it('Retry-After pushes the next attempt later, never earlier', () => {
    expect(nextAttemptAt([0, 5000], 1, 1000, 60_000)).toBe(61_000);
    expect(nextAttemptAt([0, 5000], 1, 1000, 1000)).toBe(6000);
    expect(parseRetryAfter('120', 0)).toBe(120_000);
    expect(parseRetryAfter(new Date(90_000).toUTCString(), 30_000)).toBe(60_000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });
});

describe('outbound safety', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['192.168.0.10', 'private'],
    ['172.16.5.4', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::808:808', 'ipv4Compatible'],
  ])('%s is refused (%s)', (address, range) => expect(refusedRange(address)).toBe(range));

  it('a public address is allowed', () => {
    expect(refusedRange('93.184.216.34')).toBeUndefined();
    expect(refusedRange('2606:2800:220:1:248:1893:25c8:1946')).toBeUndefined();
  });
});

describe('configuration', () => {
  it('reads the environment, and names a wrong variable', () => {
    expect(readWebhookConfig({}).allowPrivate).toBe(false);
    expect(
      readWebhookConfig({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE_MS: '0,10,20' }),
    ).toMatchObject({ allowPrivate: true, retryScheduleMs: [0, 10, 20] });
    expect(() => readWebhookConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
    expect(() => readWebhookConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '0,x' })).toThrow(
      /WEBHOOK_RETRY_SCHEDULE_MS/,
    );
  });
});
