import { parentPort } from 'node:worker_threads';
import { LogFormatError } from '@app/audit';
import { formatErrorOf, VerifyAnswer, VerifyRequest, verifyText } from './log-verifier';

/** The verifier's worker thread (log-verifier.ts): verifies each log it is sent and answers with its report. */
parentPort!.on('message', ({ id, text, options }: VerifyRequest) => {
  let answer: VerifyAnswer;
  try {
    answer = { id, report: verifyText(text, options) };
  } catch (e) {
    answer = e instanceof LogFormatError ? { id, formatError: formatErrorOf(e) } : { id, failed: true };
  }
  parentPort!.postMessage(answer);
});
