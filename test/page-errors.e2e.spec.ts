import { useApp } from './support/app';

/**
 * The overlay (opened by OBS) and the replay page (opened by a person) answer every error as a page
 * they can read, also those refused before their route runs: a query the request checks refuse, a
 * method or a path under them no route has. Every other route keeps the JSON error shape.
 */
describe('pages: every refusal a page can read', () => {
  const t = useApp({ listen: true });
  let fightId = '';
  beforeAll(async () => {
    fightId = (await t.http.post('/fights').send({ system: 'narateer', name: 'Pages' }).expect(201)).body
      .fightId;
  });

  const html = async (path: string, init?: RequestInit) => {
    const res = await fetch(t.url! + path, init);
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };

  it.each([
    ['a token holding U+0000', (id: string) => `/overlay/${id}?token=%00`, 400, 'INVALID_STRING'],
    [
      'a token whose escapes are no UTF-8',
      (id: string) => `/overlay/${id}?token=%FF`,
      400,
      'VALIDATION_FAILED',
    ],
    ['a path under the overlay no route has', (id: string) => `/overlay/${id}/more`, 404, 'NOT_FOUND'],
    ['a replay token holding U+0000', (id: string) => `/replay/${id}?token=%00`, 400, 'INVALID_STRING'],
    ['a path under the replay no route has', (id: string) => `/replay/${id}/more`, 404, 'NOT_FOUND'],
  ])('given %s, then it is an HTML page with the status and the code', async (_, path, status, code) => {
    const answer = await html(path(fightId));
    expect(answer.status).toBe(status);
    expect(answer.type).toMatch(/^text\/html/);
    expect(answer.text).toContain(`data-code="${code}"`);
  });

  it('given a method the overlay does not have, then the 405 is a page too, with Allow', async () => {
    const res = await fetch(`${t.url}/overlay/${fightId}`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('data-code="METHOD_NOT_ALLOWED"');
  });

  it('given the same refusals on an API route, then they stay JSON', async () => {
    const res = await fetch(`${t.url}/fights/${fightId}/more`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const overlayLike = await fetch(`${t.url}/overlays/${fightId}`);
    expect(overlayLike.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
