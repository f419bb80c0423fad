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
});
