import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FightLog, verifyFightLog } from '@app/audit';
import { InMemoryEventStore } from '@app/event-store';
import { blankFight, decideCommand, fightStream, LogEntry, sealEvents, toNewEvent } from '@app/fight-log';
import { FightService, SeedVault } from '@app/fights';
import { findSystem, RuleCommand } from '@app/rules';

/**
 * One command core (libs/fight-log) decides for the service and for the verifier. Each recorded fight of
 * test/fixtures/logs is played again through FightService, command by command, with the recorded command
 * ids, actors and times: the events it writes must be the recorded ones byte for byte; and the verifier,
 * deciding every command again, must find nothing to differ. A service that decided any command otherwise
 * than the verifier would fail one of the two.
 */

const DIR = join(__dirname, 'fixtures', 'logs');
const FIXTURES = readdirSync(DIR).filter((f) => f.endsWith('.json'));

/** The entries of each command, in log order. */
function commands(entries: LogEntry[]): LogEntry[][] {
  const groups: LogEntry[][] = [];
  for (const e of entries) {
    const last = groups[groups.length - 1];
    if (last && last[0].commandId === e.commandId) last.push(e);
    else groups.push([e]);
  }
  return groups;
}

describe('recorded fights: the service and the verifier decide every command alike (one command core)', () => {
  it('there are recorded fights to play again', () => {
    expect(FIXTURES.length).toBeGreaterThanOrEqual(10);
  });

  it.each(FIXTURES)(
    '%s: FightService, sent each recorded command, writes the recorded events byte for byte, and the verifier decides them the same',
    async (file) => {
      const text = readFileSync(join(DIR, file), 'utf8');
      const log = JSON.parse(text) as FightLog;
      expect(verifyFightLog(log).checks).toMatchObject({
        chain: { status: 'ok' },
        decisions: { status: 'ok' },
      });

      // StartFight, as FightService.create decides and seals it, under the recorded fight id.
      const [start, ...rest] = commands(log.entries);
      const system = findSystem(log.system)!;
      const blank = blankFight(system, log.fightId);
      const command = start[0].command as RuleCommand;
      const started = sealEvents(blank, decideCommand(blank, command, {}), {
        commandId: start[0].commandId,
        actor: start[0].actor,
        at: start[0].at,
        command,
      });
      expect(JSON.stringify(started)).toBe(JSON.stringify(start));
      const store = new InMemoryEventStore();
      await new SeedVault(store).seal(log.fightId, log.dice.seed!);
      await store.append(
        fightStream(log.fightId),
        started.map((e) => toNewEvent(e)),
        { expectedRevision: 'no_stream' },
      );

      let now = start[0].at;
      const service = new FightService(store, () => new Date(now));
      for (const group of rest) {
        now = group[0].at;
        const result = await service.execute(
          log.fightId,
          { ...(group[0].command as RuleCommand), commandId: group[0].commandId },
          { name: group[0].actor, scope: 'all' },
        );
        expect([group[0].seq, result.events.map((e) => e.hash)]).toEqual([
          group[0].seq,
          group.map((e) => e.hash),
        ]);
      }
      // The entries, not the header: the view a log ends with is the fold's, checked by the regression fixtures.
      expect(JSON.stringify((await service.exportLog(log.fightId)).entries, null, 1)).toBe(
        JSON.stringify(log.entries, null, 1),
      );
    },
  );
});
