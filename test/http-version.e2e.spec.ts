import { useApp } from './support/app';
import { onSocket, statusLines } from './support/raw-socket';

/** The JSON body of the last answer in `text`. */
const lastBody = (text: string): unknown => JSON.parse(text.slice(text.lastIndexOf('\r\n\r\n') + 4));

const NOT_SUPPORTED = {
  statusCode: 505,
  code: 'HTTP_VERSION_NOT_SUPPORTED',
  message: 'the request line does not end in HTTP/1.1 (or HTTP/1.0): no other version of HTTP is served',
  field: 'version',
};

/**
 * RFC 9110 section 15.6.6: the service speaks HTTP/1.1 and HTTP/1.0, and a request line naming any
 * other version is 505 HTTP_VERSION_NOT_SUPPORTED naming `version`, then the connection is closed,
 * whether Node's parser refuses the version itself (HTTP/1.2) or takes it (HTTP/2.0, HTTP/0.9).
 */
describe('HTTP versions: 1.1 and 1.0 are served, every other is 505', () => {
  const t = useApp({ listen: true });

  it.each(['HTTP/1.2', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/3.0', 'HTTP/1.10'])(
    'given GET /health/live %s, then it is 505 HTTP_VERSION_NOT_SUPPORTED naming version, and the connection is closed',
    async (version) => {
      const text = await onSocket(t.url!, `GET /health/live ${version}\r\nHost: x\r\n\r\n`);
      expect(statusLines(text)).toEqual(['HTTP/1.1 505 HTTP Version Not Supported']);
      expect(text).toMatch(/\r\nconnection: close\r\n/i);
      expect(lastBody(text)).toEqual(NOT_SUPPORTED);
    },
  );

  it('given a request line without a version (HTTP/0.9), then it is the same 505', async () => {
    const text = await onSocket(t.url!, 'GET /health/live\r\nHost: x\r\n\r\n');
    expect(statusLines(text)).toEqual(['HTTP/1.1 505 HTTP Version Not Supported']);
    expect(lastBody(text)).toEqual(NOT_SUPPORTED);
  });

  it("given HTTP/2's connection preface (PRI * HTTP/2.0), then it is the same 505", async () => {
    const text = await onSocket(t.url!, 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
    expect(statusLines(text)).toEqual(['HTTP/1.1 505 HTTP Version Not Supported']);
    expect(lastBody(text)).toEqual(NOT_SUPPORTED);
  });

  it.each(['HTTP/1.2', 'HTTP/2.0'])(
    'given GET %s pipelined behind a GET HTTP/1.1, then the first is answered whole, then the 505, then the close',
    async (version) => {
      const text = await onSocket(
        t.url!,
        `GET /health/live HTTP/1.1\r\nHost: x\r\n\r\nGET /health/live ${version}\r\nHost: x\r\n\r\n`,
      );
      expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 505 HTTP Version Not Supported']);
      expect(lastBody(text)).toEqual(NOT_SUPPORTED);
    },
  );

  it.each([
    ['HTTP/1.1', 'Host: x\r\nConnection: close\r\n'],
    ['HTTP/1.0', ''],
  ])('given GET /health/live %s, then it is served', async (version, headers) => {
    const text = await onSocket(t.url!, `GET /health/live ${version}\r\n${headers}\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK']);
    expect(lastBody(text)).toMatchObject({ status: 'ok' });
  });
});
