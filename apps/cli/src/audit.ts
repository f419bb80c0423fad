import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import {
  LogFormatError,
  parseFightLog,
  readVerifyOptions,
  summarizeReport,
  verifyFightLog,
  VerifyOptionError,
  VerifyOptions,
} from '@app/audit';

interface VerifyFlags {
  summary?: boolean;
  seed?: string;
  headHash?: string;
  events?: string;
}

/**
 * `audit verify <file>`: the same verifier as the API; exit code 1 when the log does not verify. A prefix of a log
 * verifies (complete: false): --head-hash or --events make it fail.
 */
export function registerAudit(program: Command): void {
  const audit = program.command('audit').description('verify exported fight logs');
  audit
    .command('verify <file>')
    .description(
      'verify a fight log (JSON document or NDJSON; "-" reads stdin): hash chain, sequence, seed, every decision, view',
    )
    .option('--summary', 'print a short human summary instead of the JSON report')
    .option('--seed <seed>', 'a seed you hold (seeded mode) to check the dice before FightEnded reveals it')
    .option(
      '--head-hash <hash>',
      'a head hash you trust (from the live service): the log must end exactly there',
    )
    .option('--events <n>', 'the number of events you expect the log to hold (a prefix of the fight fails)')
    .action((file: string, flags: VerifyFlags) => {
      let expected: VerifyOptions;
      try {
        expected = readVerifyOptions({ headHash: flags.headHash, events: flags.events });
      } catch (e) {
        if (!(e instanceof VerifyOptionError)) throw e;
        return fail(
          flags.summary
            ? `bad option --${e.field === 'headHash' ? 'head-hash' : e.field}: ${e.message}`
            : JSON.stringify(
                { ok: false, error: { code: e.code, message: e.message, field: e.field } },
                null,
                2,
              ),
        );
      }
      let text: string;
      try {
        text = readFileSync(file === '-' ? 0 : file, 'utf8');
      } catch (e) {
        return fail(`cannot read ${file}: ${(e as Error).message}`);
      }
      let log;
      try {
        log = parseFightLog(text);
      } catch (e) {
        if (!(e instanceof LogFormatError)) throw e;
        return fail(
          flags.summary
            ? `malformed log: ${e.message}`
            : JSON.stringify(
                { ok: false, error: { code: e.code, message: e.message, line: e.line, field: e.field } },
                null,
                2,
              ),
        );
      }
      const report = verifyFightLog(log, { ...expected, seed: flags.seed });
      console.log(flags.summary ? summarizeReport(report) : JSON.stringify(report, null, 2));
      if (!report.ok) process.exitCode = 1;
    });
}

function fail(message: string): void {
  console.log(message);
  process.exitCode = 1;
}
