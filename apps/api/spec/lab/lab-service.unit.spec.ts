import { Logger } from '@nestjs/common';
import { LabService } from '../../src/lab/lab.service';
import { StartLabRunInput } from '../../src/lab/lab.dto';

const tenant = { kind: 'tenant', tenantId: 't1', keyId: 'k1' } as const;

afterEach(() => jest.restoreAllMocks());

async function settled(lab: LabService, id: string) {
  for (let i = 0; i < 500; i++) {
    const run = lab.get(tenant, id);
    if (run.status !== 'running') return run;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`lab run ${id} still running`);
}

it('a run the shutdown stops is reported stopped at info, with the reason, and logs no error', async () => {
  const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  const lab = new LabService();
  const input = Object.assign(new StartLabRunInput(), { system: 'narateer', fights: 10_000, seed: 'stop' });
  const started = lab.start(tenant, input);
  expect(started.status).toBe('running');
  lab.onApplicationShutdown();
  const run = await settled(lab, started.id);
  expect(run.status).toBe('failed');
  expect(run.error).toBe('the run was stopped: the service is shutting down');
  expect(error).not.toHaveBeenCalled();
  expect(log).toHaveBeenCalledWith(`lab run ${started.id} stopped: the service is shutting down`);
});
