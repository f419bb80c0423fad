import { parentPort } from 'node:worker_threads';
import { answerOfError, runVerifyWork, VerifyAnswer, VerifyRequest } from './log-verifier';

/** The verifier's worker thread (log-verifier.ts): verifies each log it is sent and answers with its report. */
parentPort!.on('message', ({ id, work }: VerifyRequest) => {
  let answer: VerifyAnswer;
  try {
    answer = { id, report: runVerifyWork(work) };
  } catch (e) {
    answer = answerOfError(id, e);
  }
  parentPort!.postMessage(answer);
});
