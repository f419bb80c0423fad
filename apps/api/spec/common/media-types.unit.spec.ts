import { BODY_MEDIA, BodyMedia, contentTypeOf, headerPatternOf } from '../../src/common/media-types';
import { refuseRepeatedHeaders, requireJsonBody } from '../../src/common/validation';

/** What the 415 check says of a body of this Content-Type sent to `url`. */
function admitted(url: string, contentType: string): boolean {
  try {
    requireJsonBody({ method: 'POST', url, headers: { 'content-type': contentType, 'content-length': '2' } });
    return true;
  } catch (e) {
    expect(e).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', field: 'content-type' });
    return false;
  }
}

/** Which of the parsers Fastify is given would take a body of this Content-Type. */
const parsedAs = (contentType: string): BodyMedia[] =>
  (Object.keys(BODY_MEDIA) as BodyMedia[]).filter((m) => headerPatternOf(m).test(contentType));

const TYPES = [
  'application/json',
  'Application/JSON; charset=utf-8',
  'application/json ;charset=utf-16le',
  'application/vnd.api+json',
  'application/merge-patch+json; charset=utf-8',
  'application/x-ndjson',
  'APPLICATION/X-NDJSON;charset=utf-8',
  'text/plain',
  'text/foo+json',
  'application/jsonp',
  'application/json-seq',
  'application/x-ndjsonx',
  'multipart/form-data; boundary=x',
  '',
];

describe('one table of body media types drives both the 415 check and the parsers', () => {
  it.each(TYPES)(
    'a body of Content-Type %j is admitted on a route exactly when a parser the route takes would parse it',
    (type) => {
      expect(admitted('/fights', type)).toBe(parsedAs(type).includes('json'));
      expect(admitted('/audit/verify?strict=1', type)).toBe(parsedAs(type).length > 0);
    },
  );

  it('names every media type the route takes when it refuses one', () => {
    try {
      requireJsonBody({
        method: 'POST',
        url: '/audit/verify',
        headers: { 'content-type': 'text/foo+json', 'content-length': '2' },
      });
      throw new Error('admitted');
    } catch (e) {
      expect((e as Error).message).toBe(
        'the body must be application/json or application/x-ndjson, not text/foo+json',
      );
    }
  });
});

describe('a Content-Type is read by the grammar of RFC 9110, or refused', () => {
  it.each([
    ['application/json', { essence: 'application/json' }],
    ['Application/JSON; Charset="UTF-16LE"', { essence: 'application/json', charset: 'utf-16le' }],
    ['application/json ;\tcharset=utf-8', { essence: 'application/json', charset: 'utf-8' }],
    // Empty parameters are allowed: parameters = *( OWS ";" OWS [ parameter ] ).
    ['application/json;', { essence: 'application/json' }],
    ['application/json;; charset=utf-8;', { essence: 'application/json', charset: 'utf-8' }],
    ['application/json; charset=""', { essence: 'application/json', charset: '' }],
  ])('given %j, reads %j', (header, read) => {
    expect(contentTypeOf(header)).toEqual(read);
  });

  it.each([
    'application/json; charset',
    'application/json; charset=',
    'application/json; charset=utf-8; charset=utf-16le',
    'application/json; charset=utf-8; CHARSET=utf-8',
    'application/json, text/plain',
    'application/',
    'json',
  ])('given %j, refuses it 415 naming content-type, whichever route it was sent to', (header) => {
    expect(() => contentTypeOf(header)).toThrow(
      expect.objectContaining({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', field: 'content-type' }),
    );
    expect(() =>
      requireJsonBody({
        method: 'POST',
        url: '/fights',
        headers: { 'content-type': header, 'content-length': '2' },
      }),
    ).toThrow(expect.objectContaining({ status: 415, field: 'content-type' }));
  });

  it('given no Content-Type or an empty one on a body, asks for one', () => {
    for (const headers of [{ 'content-length': '2' }, { 'content-type': '', 'content-length': '2' }])
      expect(() => requireJsonBody({ method: 'POST', url: '/fights', headers })).toThrow(
        'the body must be application/json (send Content-Type)',
      );
  });
});

describe('Host, Content-Type and Authorization are sent once', () => {
  it.each([
    [['Host', 'a', 'host', 'b'], 'host'],
    [['Content-Type', 'application/json', 'content-type', 'text/plain'], 'content-type'],
    [['authorization', 'Bearer a', 'X-Other', '1', 'AUTHORIZATION', 'Bearer b'], 'authorization'],
  ])('given %j, refuses the request 400 BAD_REQUEST naming %s', (raw, field) => {
    expect(() => refuseRepeatedHeaders(raw)).toThrow(
      expect.objectContaining({ status: 400, code: 'BAD_REQUEST', field }),
    );
  });

  it('given each once, and list headers repeated, takes the request', () => {
    expect(() =>
      refuseRepeatedHeaders([
        'Host',
        'a',
        'Content-Type',
        'application/json',
        'Authorization',
        'Bearer a',
        'Accept',
        'a/b',
        'Accept',
        'c/d',
        'If-None-Match',
        '"x"',
        'If-None-Match',
        '"y"',
      ]),
    ).not.toThrow();
  });
});
