import { countMembers, firstDuplicateKey, firstTextProblem, nestsDeeperThan } from '@app/audit';

describe('a number written otherwise than the service writes it, inside one value of a JSON document', () => {
  const within = ['variables', 'log'];

  it('names it from that value, where the same text read whole names it from the top', () => {
    const text = '{"query":"x","variables":{"log":{"entries":[{"seq":4.0}]}}}';
    expect(firstTextProblem(text, { numbers: true })?.path).toBe('variables.log.entries[0].seq');
    expect(firstTextProblem(text, { numbers: true, within })).toMatchObject({
      kind: 'number',
      path: 'entries[0].seq',
      message: expect.stringMatching(/^entries\[0\]\.seq is written 4\.0, /),
    });
  });

  it('passes over one outside it, before it, in a sibling or in a member whose name only starts alike', () => {
    const text =
      '{"extensions":{"n":1e0},"variables":{"events":13.0,"logs":{"seq":-0},"log":{"seq":4,"faces":[2.0000000000000001]}}}';
    expect(firstTextProblem(text, { numbers: true, within })).toMatchObject({ path: 'faces[0]' });
    expect(
      firstTextProblem('{"variables":{"log":{"seq":4},"n":4e0}}', { numbers: true, within }),
    ).toBeUndefined();
  });

  it('finds the value itself when it is the number, its path then empty', () => {
    expect(firstTextProblem('{"variables":{"log":4e0}}', { numbers: true, within })).toMatchObject({
      path: '',
    });
  });
});

describe('the nesting and the member names of JSON text, as every request body is read', () => {
  it('counts members outside strings, in text and in its UTF-8 bytes alike', () => {
    const text = '{"a:b":{"c":[1,{"d":"\\":"}]},"é":0}';
    expect(countMembers(text, 64)).toBe(4);
    expect(countMembers(Buffer.from(text), 64)).toBe(4);
  });

  it('gives no count once the text nests deeper than the limit, brackets in strings aside', () => {
    expect(countMembers('[[[1]]]', 3)).toBe(0);
    expect(countMembers('[[[[1]]]]', 3)).toBeUndefined();
    expect(countMembers('[["[[[["]]', 3)).toBe(0);
    expect(nestsDeeperThan('{"a":'.repeat(65) + '1' + '}'.repeat(65))).toBe(true);
  });

  it('names the first repeated member by its keys, an escaped name read as the name it is', () => {
    expect(firstDuplicateKey('{"a":[{"n":1},{"n":1,"\\u006e":2}],"a":0}')).toEqual(['a', 1, 'n']);
    expect(firstDuplicateKey('{"a":{"b":1},"c":{"b":1}}')).toBeUndefined();
  });
});
