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

  /** The index the parts of `index` give: [0, cut], (cut, end]. */
  const reread = (index: CommandIndex, cut: number, end: number, upTo = end) =>
    CommandIndex.fromParts(
      [
        { fromSeq: 0, toSeq: cut, entries: entriesUpTo(index, cut) },
        { fromSeq: cut, toSeq: end, entries: index.entriesAfter(cut) },
      ],
      index.lastCommand,
      upTo,
    );

  it('its parts (entriesAfter, fromParts) give the same answers, collisions and the last command included', () => {
    const index = new CommandIndex();
    for (let i = 0; i < 50; i++) index.add(`cmd-${i}`, 2 * i + 1);
    index.add(A, 101);
    index.add(B, 102);
    index.add(B, 103);
    const copy = reread(index, 60, 103)!;
    for (const id of [A, B, 'cmd-0', 'cmd-29', 'cmd-30', 'cmd-49', 'never-sent'])
      expect(copy.candidates(id)).toEqual(index.candidates(id));
    expect(copy.candidates(A)).toEqual([101, 102]);
    expect(copy.entriesAfter(0)).toBe(index.entriesAfter(0));
    expect(copy.lastCommand).toBe(B);
    // The last command's next event is the same entry, in the copy as in the original.
    copy.add(B, 104);
    index.add(B, 104);
    expect(copy.entriesAfter(0)).toBe(index.entriesAfter(0));
  });

  it('saves its entries as they were added, (key, first seq) pairs of little-endian int32s, from a seq on', () => {
    const index = new CommandIndex();
    index.add('cmd-1', 3);
    index.add('cmd-1', 4);
    index.add(A, 5);
    index.add(B, 9);
    expect(index.entriesAfter(0)).toBe(int32s(commandKey('cmd-1'), 3, commandKey(A), 5, commandKey(B), 9));
    expect(index.entriesAfter(4)).toBe(int32s(commandKey(A), 5, commandKey(B), 9));
    expect(index.entriesAfter(5)).toBe(int32s(commandKey(B), 9));
    expect(index.entriesAfter(9)).toBe('');
    expect([index.size, index.lastCommand]).toEqual([3, B]);
  });

  it('grows past its first capacity and keeps every entry', () => {
    const index = new CommandIndex();
    for (let i = 0; i < 1000; i++) index.add(`cmd-${i}`, i + 1);
    const copy = reread(index, 500, 1000)!;
    expect(copy.size).toBe(1000);
    for (const i of [0, 7, 8, 499, 500, 999]) expect(copy.candidates(`cmd-${i}`)).toEqual([i + 1]);
  });

  it('read up to a seq, a part that reaches past it gives only the entries up to it', () => {
    const index = new CommandIndex();
    for (let i = 0; i < 10; i++) index.add(`cmd-${i}`, i + 1);
    const copy = reread(index, 4, 10, 7)!;
    expect(copy.size).toBe(7);
    expect(copy.candidates('cmd-6')).toEqual([7]);
    expect(copy.candidates('cmd-7')).toEqual([]);
  });

  it.each([
    ['entries of a partial word', Buffer.from([1, 2, 3]).toString('base64')],
    ['an entry without its seq', Buffer.alloc(4).toString('base64')],
    ['not base64', '!!!!'],
    ['a key wider than 30 bits', int32s(0x40000001, 5)],
    ['a negative key', int32s(-1, 5)],
    ['a seq at or before its part', int32s(1, 0)],
    ['a seq past its part', int32s(1, 11)],
  ])('a part whose entries are %s is refused (a corrupt snapshot)', (_what, entries) => {
    expect(CommandIndex.fromParts([{ fromSeq: 0, toSeq: 10, entries }], null, 10)).toBeUndefined();
  });
});

/** The entries of `index` up to `seq`, as a part saved at `seq` held them. */
function entriesUpTo(index: CommandIndex, seq: number): string {
  const all = Buffer.from(index.entriesAfter(0), 'base64');
  const after = Buffer.from(index.entriesAfter(seq), 'base64');
  return all.subarray(0, all.length - after.length).toString('base64');
}

function int32s(...values: number[]): string {
  const buf = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => buf.writeInt32LE(v, 4 * i));
  return buf.toString('base64');
}
