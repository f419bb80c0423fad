import { wilson } from '../src';

describe('Wilson score interval (95%)', () => {
  it.each([
    // 81/263 and 1/29 are worked examples in Newcombe (1998), Statistics in Medicine 17, Table I.
    [0, 10, 0, 0.2775],
    [5, 10, 0.2366, 0.7634],
    [10, 10, 0.7225, 1],
    [81, 263, 0.2553, 0.3662],
    [1, 29, 0.0061, 0.1718],
  ])('%i of %i gives [%f, %f]', (k, n, low, high) => {
    const ci = wilson(k, n);
    expect(ci.low).toBeCloseTo(low, 4);
    expect(ci.high).toBeCloseTo(high, 4);
  });

  it('no trials give the whole range', () => {
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });

  it('the interval narrows as the trials grow and always holds the observed rate', () => {
    const small = wilson(30, 100);
    const large = wilson(3000, 10000);
    expect(large.high - large.low).toBeLessThan(small.high - small.low);
    expect(large.low).toBeLessThan(0.3);
    expect(large.high).toBeGreaterThan(0.3);
  });
});
