import { CommandIndex, commandKey } from '../src/command-index';

// cmd-49988 and cmd-186840 share a key: the first collision among cmd-0, cmd-1, … (brute force,
// as command-index.int.spec.ts finds it; checked by the first test).
const [A, B] = ['cmd-49988', 'cmd-186840'];

describe('CommandIndex', () => {
  it('the two ids collide', () => {
    expect(commandKey(A)).toBe(commandKey(B));
  });

  it('an id never added has no candidates', () => {
    const index = new CommandIndex();
    index.add('cmd-1', 4);
    expect(index.candidates('cmd-2')).toEqual([]);
  });

  it('the events of one command are one entry: its first seq', () => {
    const index = new CommandIndex();
    index.add('cmd-1', 4);
    index.add('cmd-1', 5);
    index.add('cmd-1', 6);
    expect(index.candidates('cmd-1')).toEqual([4]);
  });

  it('ids sharing a key keep every first seq, oldest first, for the log to tell apart', () => {
    const index = new CommandIndex();
    index.add(A, 4);
    index.add(A, 5);
    index.add('between', 6);
    index.add(B, 7);
    index.add(B, 8);
    expect(index.candidates(A)).toEqual([4, 7]);
    expect(index.candidates(B)).toEqual([4, 7]);
  });

  it('a snapshot of the index (toData, fromData) gives the same answers, collisions and the last command included', () => {
    const index = new CommandIndex();
    for (let i = 0; i < 50; i++) index.add(`cmd-${i}`, 2 * i + 1);
    index.add(A, 101);
    index.add(B, 102);
    index.add(B, 103);
    const copy = CommandIndex.fromData(JSON.parse(JSON.stringify(index.toData())))!;
    for (const id of [A, B, 'cmd-0', 'cmd-49', 'never-sent'])
      expect(copy.candidates(id)).toEqual(index.candidates(id));
    expect(copy.candidates(A)).toEqual([101, 102]);
    expect(copy.toData()).toEqual(index.toData());
    // The last command's next event is the same entry, in the copy as in the original.
    copy.add(B, 104);
    index.add(B, 104);
    expect(copy.toData()).toEqual(index.toData());
  });

  it.each([
    ['not an object', null],
    ['entries not a string', { entries: [1, 2], last: null }],
    ['entries of a partial word', { entries: Buffer.from([1, 2, 3]).toString('base64'), last: null }],
    ['an entry without its seq', { entries: Buffer.alloc(4).toString('base64'), last: null }],
    ['a shared entry longer than the data', { entries: int32s(0x40000001, 5, 1), last: null }],
    ['a negative seq', { entries: int32s(1, -1), last: null }],
    ['last not a string', { entries: int32s(1, 2), last: 7 }],
  ])('an index that is %s is refused (a corrupt snapshot)', (_what, data) => {
    expect(CommandIndex.fromData(data)).toBeUndefined();
  });
});

function int32s(...values: number[]): string {
  const buf = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => buf.writeInt32LE(v, 4 * i));
  return buf.toString('base64');
}
