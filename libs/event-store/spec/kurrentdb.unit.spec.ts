import { randomUUID } from 'node:crypto';
import { StreamNotFoundError, UnavailableError, WrongExpectedVersionError } from '@kurrent/kurrentdb-client';
import { prepareEvents } from '../src/append-rules';
import { eventStoreEngine } from '../src/create';
import {
  comparePositions,
  contentDigest,
  decodeCheckpoint,
  encodeCheckpoint,
  isStreamNotFound,
  isWrongExpectedVersion,
  toStreamState,
  toWrongExpectedRevision,
} from '../src/kurrentdb-codec';
import { KurrentNames } from '../src/kurrentdb-names';
import { describeError, kurrentTarget } from '../src/kurrentdb-url';
import { WrongExpectedRevision } from '../src/port';

describe('KurrentDB checkpoints', () => {
  const positions = [
    { commit: 0n, prepare: 0n },
    { commit: 9n, prepare: 9n },
    { commit: 10n, prepare: 2n },
    { commit: 10n, prepare: 10n },
    { commit: 18446744073709551615n, prepare: 18446744073709551615n },
  ];

  it('round-trip every position, one spelling each', () => {
    for (const p of positions) expect(decodeCheckpoint(encodeCheckpoint(p))).toEqual(p);
    expect(encodeCheckpoint({ commit: 1234n, prepare: 1200n })).toBe(
      '00000000000000001234/00000000000000001200',
    );
  });

  it('sort as strings in log order: commit, then prepare', () => {
    const encoded = positions.map(encodeCheckpoint);
    expect([...encoded].reverse().sort()).toEqual(encoded);
    for (let i = 1; i < positions.length; i++)
      expect(comparePositions(positions[i - 1], positions[i])).toBe(-1);
    expect(comparePositions(positions[2], { ...positions[2] })).toBe(0);
    expect(comparePositions(positions[3], positions[2])).toBe(1);
  });

  it('reject anything else, including other engines’ checkpoints', () => {
    for (const bad of [
      '',
      'not a checkpoint',
      '42',
      '1:2',
      '1/2',
      '00000000000000001234/0000000000000000120',
      '18446744073709551616/00000000000000000000',
    ]) {
      expect(() => decodeCheckpoint(bad)).toThrow(RangeError);
    }
    expect(() => encodeCheckpoint({ commit: -1n, prepare: 0n })).toThrow(RangeError);
  });
});

describe('KurrentDB expected revisions and errors', () => {
  it("maps 'no_stream', 'any' and a revision to the client's stream states, and refuses a negative revision", () => {
    expect(toStreamState('no_stream')).toBe('no_stream');
    expect(toStreamState('any')).toBe('any');
    expect(toStreamState(7n)).toBe(7n);
    expect(() => toStreamState(-1n)).toThrow(RangeError);
  });

  it("turns the client's WrongExpectedVersionError into WrongExpectedRevision", () => {
    const conflict = new WrongExpectedVersionError(undefined, {
      streamName: 'fight-1',
      expected: 2n,
      current: 4n,
    });
    expect(isWrongExpectedVersion(conflict)).toBe(true);
    const translated = toWrongExpectedRevision(conflict, 'fight-1', 2n);
    expect(translated).toBeInstanceOf(WrongExpectedRevision);
    expect(translated).toMatchObject({ stream: 'fight-1', expected: 2n, actual: 4n });
    const missing = new WrongExpectedVersionError(undefined, {
      streamName: 's',
      expected: 0n,
      current: 'no_stream',
    });
    expect(toWrongExpectedRevision(missing, 's', 0n)).toMatchObject({ expected: 0n, actual: 'no_stream' });
    const legacy = new WrongExpectedVersionError(undefined, { streamName: 's', expected: 0n, current: -1n });
    expect(toWrongExpectedRevision(legacy, 's', 0n)).toMatchObject({ actual: 'no_stream' });
  });

  it('tells a missing stream and a conflict from other failures', () => {
    expect(isStreamNotFound(new StreamNotFoundError(undefined, 's'))).toBe(true);
    for (const other of [
      new UnavailableError(),
      new Error('wrong-expected-version'),
      'stream-not-found',
      null,
    ]) {
      expect(isWrongExpectedVersion(other)).toBe(false);
      expect(isStreamNotFound(other)).toBe(false);
    }
  });
});

describe('KurrentDB content digest (what a retry must match)', () => {
  const digest = (type: string, data: unknown, metadata?: Record<string, unknown>) =>
    contentDigest(prepareEvents([{ id: randomUUID(), type, data, metadata }])[0]);

  it('ignores key order and the id, and sees type, data and metadata', () => {
    const base = digest('Hit', { a: 1, b: { c: 2, d: 3 } }, { by: 'x' });
    expect(digest('Hit', { b: { d: 3, c: 2 }, a: 1 }, { by: 'x' })).toBe(base);
    expect(digest('Missed', { a: 1, b: { c: 2, d: 3 } }, { by: 'x' })).not.toBe(base);
    expect(digest('Hit', { a: 2, b: { c: 2, d: 3 } }, { by: 'x' })).not.toBe(base);
    expect(digest('Hit', { a: 1, b: { c: 2, d: 3 } }, { by: 'y' })).not.toBe(base);
    expect(digest('Hit', null)).not.toBe(digest('Hit', {}));
  });
});

describe('KurrentDB stream names', () => {
  it('keeps stream names as they are without a namespace, and reserves $ and claim streams', () => {
    const names = new KurrentNames();
    expect(names.stream('fight-1')).toBe('fight-1');
    expect(names.logical('fight-1')).toBe('fight-1');
    expect(names.claim('0b6c')).toBe('event-id-0b6c');
    for (const reserved of ['', '$all', '$$fight-1', 'event-id-0b6c'])
      expect(() => names.stream(reserved)).toThrow(TypeError);
  });

  it('reads back only the log: no system streams, no claims, no $ event types', () => {
    const names = new KurrentNames();
    expect(names.inLog('fight-1', 'FightStarted')).toBe(true);
    expect(names.inLog('auth-admin', 'AdminKeyRegistered')).toBe(true);
    expect(names.inLog('$stats-127.0.0.1:2113', 'StatsCollected')).toBe(false);
    expect(names.inLog('$$fight-1', '$metadata')).toBe(false);
    expect(names.inLog('event-id-0b6c', 'EventIdClaimed')).toBe(false);
    expect(names.inLog('fight-1', '$>')).toBe(false);
  });

  it('confines a namespace to its own streams (a dot in it is a dot, not any character)', () => {
    const names = new KurrentNames('t1.');
    expect(names.stream('fight-1')).toBe('t1.fight-1');
    expect(names.logical('t1.fight-1')).toBe('fight-1');
    expect(names.claim('0b6c')).toBe('t1.event-id-0b6c');
    expect(names.logRegex).toBe('^t1\\.(?!\\$|event-id-)');
    expect(names.inLog('t1.fight-1', 'FightStarted')).toBe(true);
    expect(names.inLog('t1xfight-1', 'FightStarted')).toBe(false);
    expect(names.inLog('fight-1', 'FightStarted')).toBe(false);
    expect(names.inLog('t1.event-id-0b6c', 'EventIdClaimed')).toBe(false);
    expect(() => new KurrentNames('a|b')).toThrow(RangeError);
  });
});

describe('KurrentDB urls', () => {
  it('selects the KurrentDB engine for its four schemes', () => {
    for (const url of [
      'kurrentdb://localhost:2113',
      'KurrentDB+Discover://cluster:2113',
      'esdb://localhost:2113',
      'esdb+discover://cluster:2113',
    ]) {
      expect(eventStoreEngine(url)).toBe('kurrentdb');
    }
    expect(eventStoreEngine('postgres://x')).toBe('postgres');
    expect(eventStoreEngine(undefined)).toBe('sqlite');
    expect(eventStoreEngine('kdb://localhost:2113')).toBeUndefined();
  });

  it('hands the client the url, esdb renamed, and shows only scheme and hosts', () => {
    expect(kurrentTarget('esdb://admin:changeit@db1:2113,db2:2113?tls=false&nodePreference=leader')).toEqual({
      connectionString: 'kurrentdb://admin:changeit@db1:2113,db2:2113?tls=false&nodePreference=leader',
      display: 'esdb://***@db1:2113,db2:2113',
      secrets: ['admin:changeit', 'changeit'],
    });
    expect(kurrentTarget(' esdb+discover://cluster.example:2113/ ')).toMatchObject({
      connectionString: 'kurrentdb+discover://cluster.example:2113/',
      display: 'esdb+discover://cluster.example:2113',
      secrets: [],
    });
    expect(
      kurrentTarget('kurrentdb://localhost:2113?TLS=false&tls-verify-cert=false&keep_alive_interval=5000')
        .display,
    ).toBe('kurrentdb://localhost:2113');
  });

  it('refuses an unknown option or a missing host without repeating the credentials', () => {
    const refused = (url: string) => {
      try {
        kurrentTarget(url);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`accepted ${url}`);
    };
    expect(refused('kurrentdb://admin:s3cret@db:2113?tls=false&bogus=1')).toBe(
      'KurrentDB url kurrentdb://***@db:2113: unsupported option "bogus"',
    );
    expect(refused('kurrentdb://admin:s3cret@db:2113?throwOnAppendFailure=false')).toMatch(
      /unsupported option "throwOnAppendFailure"/,
    );
    expect(refused('kurrentdb://admin:s3cret@?tls=false')).toBe(
      'KurrentDB url kurrentdb://***@ names no host',
    );
    expect(refused('postgres://admin:s3cret@db/x')).not.toMatch(/s3cret/);
  });

  it('masks the credentials, encoded or not, in client messages, and keeps one line', () => {
    const target = kurrentTarget('kurrentdb://admin:p%40ss@db:2113');
    const error = Object.assign(
      new Error('Unexpected "p@ss" near admin:p%40ss\nkurrentdb://admin:p%40ss@db:2113'),
      { type: 'unknown' },
    );
    expect(describeError(error, target)).toBe('unknown: Unexpected "***" near ***');
    expect(describeError(new UnavailableError(), target)).toBe('unavailable');
  });
});
