import { readConfig } from '../src/config';

describe('readConfig: READ_SIDE (docs/event-store.md "One owner of the read side")', () => {
  it('given nothing, then the instance stands for the read side', () => {
    expect(readConfig({}).readSide).toBe('elect');
    expect(readConfig({ READ_SIDE: 'elect' }).readSide).toBe('elect');
  });

  it('given follow, then the instance never owns it', () => {
    expect(readConfig({ READ_SIDE: 'follow' }).readSide).toBe('follow');
  });

  it('given another value, then the boot stops naming the variable', () => {
    expect(() => readConfig({ READ_SIDE: 'passive' })).toThrow(/READ_SIDE must be elect or follow/);
  });
});
