import { BODY_MEDIA, BodyMedia, headerPatternOf } from '../../src/common/media-types';
import { requireJsonBody } from '../../src/common/validation';

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
