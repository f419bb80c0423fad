import { LogEntry, toNewEvent } from '../src/fight-event';

const entry = (seq: number): LogEntry => ({
  fightId: 'f1',
  seq,
  type: 'GmNoteAdded',
  v: 1,
  at: '2026-12-03T10:00:00.000Z',
  actor: 'gm',
  commandId: 'c1',
  data: { text: `note ${seq}` },
  hash: `h${seq}`,
  drawsUsed: 0,
});

describe('toNewEvent: the id a stored fight event gets', () => {
  it('is a UUIDv7 (RFC 9562), so a store indexes new ids at the end of its index', () => {
    const { id } = toNewEvent(entry(1));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(ms - Date.now())).toBeLessThan(60_000);
  });

  it('sorts after every id made in an earlier millisecond, and no two are alike', () => {
    const now = jest.spyOn(Date, 'now');
    const ids: string[] = [];
    for (let ms = 1_780_000_000_000; ms < 1_780_000_000_300; ms++) {
      now.mockReturnValue(ms);
      ids.push(toNewEvent(entry(1)).id, toNewEvent(entry(2)).id);
    }
    now.mockRestore();
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 2; i < ids.length; i += 2) {
      expect(ids[i] > ids[i - 1]).toBe(true);
      expect(ids[i] > ids[i - 2]).toBe(true);
    }
  });

  it('carries the envelope in the metadata, and the tenant and request id when given', () => {
    expect(toNewEvent(entry(2), { tenantId: 't1', requestId: 'r1' })).toMatchObject({
      type: 'GmNoteAdded',
      data: { text: 'note 2' },
      metadata: {
        fightId: 'f1',
        v: 1,
        actor: 'gm',
        commandId: 'c1',
        drawsUsed: 0,
        hash: 'h2',
        tenantId: 't1',
        requestId: 'r1',
      },
    });
  });
});
