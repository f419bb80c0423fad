import { Webhook } from 'standardwebhooks';
import { DEFAULT_WEBHOOK_CONFIG, WebhookConfig } from './config';
import { WebhookDispatcher } from './dispatcher';
import { Sender, SendResult } from './sender';
import { newSigningSecret } from './signing';
import { SqlWebhookStore } from './store/sql-store';
import { SqliteDriver } from './store/sqlite-driver';
import { EndpointRow, WebhookStore } from './store/types';

const config: WebhookConfig = { ...DEFAULT_WEBHOOK_CONFIG, retryScheduleMs: [0, 1000, 5000], pollMs: 10_000 };
const secret = newSigningSecret();
const endpoint = (id: string): EndpointRow => ({
  id, tenantId: 't1', url: `http://receiver/${id}`, description: '', eventTypes: [], fightId: null, enabled: true, secret,
  previousSecret: null, previousSecretUntil: null, disabledReason: null, failingSince: null, createdAt: 0, updatedAt: 0,
});

describe('webhook dispatcher', () => {
  let store: WebhookStore;
  let now: number;
  let received: Array<{ fight: string; seq: number }>;
  let answer: (fight: string, seq: number) => Partial<SendResult>;
  let dispatcher: WebhookDispatcher;
  const sender: Sender = async (_url, headers, body) => {
    const { fight, seq } = JSON.parse(body) as { fight: string; seq: number };
    new Webhook(secret).verify(body, headers);
    received.push({ fight, seq });
    return { excerpt: '', latencyMs: 1, ...answer(fight, seq) };
  };
  const settle = async () => {
    for (let i = 0; i < 20; i++) {
      dispatcher.kick();
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  beforeEach(async () => {
    store = new SqlWebhookStore(new SqliteDriver(':memory:', 'memory'));
    now = Math.floor(Date.now() / 1000) * 1000;
    received = [];
    await store.insertEndpoint(endpoint('e1'));
    for (const fight of ['A', 'B']) for (const seq of [1, 2, 3]) await store.insertDelivery({ id: `msg_${fight}${seq}`, endpointId: 'e1', tenantId: 't1', fightId: fight, seq, eventType: 'E', payload: JSON.stringify({ fight, seq }), createdAt: now });
    dispatcher = new WebhookDispatcher(store, config, sender, () => now);
  });
  afterEach(async () => {
    await dispatcher.stop();
    await store.close();
  });

  it('a failing fight holds back only its own later events, in seq order', async () => {
    let failA = true;
    answer = (fight) => ({ status: fight === 'A' && failA ? 500 : 204 });
    await settle();
    expect(received.filter((r) => r.fight === 'B').map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(received.filter((r) => r.fight === 'A').map((r) => r.seq)).toEqual([1]);
    failA = false;
    now += 1000;
    await settle();
    expect(received.filter((r) => r.fight === 'A').map((r) => r.seq)).toEqual([1, 1, 2, 3]);
    expect((await store.listAttempts('msg_A1')).map((a) => a.status)).toEqual([500, 204]);
  });

  it('gives up when the schedule is spent; Retry-After delays the retry', async () => {
    answer = (fight) => (fight === 'A' ? { status: 503, retryAfter: '30' } : { status: 200 });
    await settle();
    now += 1000;
    await settle();
    expect(received.filter((r) => r.fight === 'A')).toHaveLength(1);
    now += 29_000;
    await settle();
    now += 30_000;
    await settle();
    expect((await store.getDelivery('msg_A1'))!.status).toBe('failed');
    // The spent delivery no longer holds back the next one.
    expect(received.filter((r) => r.fight === 'A').map((r) => r.seq).slice(0, 4)).toEqual([1, 1, 1, 2]);
  });

  it('410 disables the endpoint and says why; the deliveries wait for it', async () => {
    answer = () => ({ status: 410 });
    await settle();
    expect(await store.getEndpoint('e1')).toMatchObject({ enabled: false, disabledReason: 'the receiver answered 410 Gone' });
    const sent = received.length;
    now += 60_000;
    await settle();
    expect(received.length).toBe(sent);
    expect((await store.listDeliveries('e1', { limit: 10, status: 'pending' })).length).toBe(6);
  });
});
