// The production path rehearsed end to end (rehearse/, `npm run rehearse`): the real Fastly CLI
// publishes the project to a new service on the stand-in of Fastly's API, the published package serves
// on the local host from the stores the service links, and every tool an operator uses on a service
// runs against it. What an operator would notice: every step passes (each checks its own outcome: the
// stores' values, the room's answers), publish makes the calls Fastly documents, and the whole path's
// API calls are each counted by a step, far inside a token's hourly budget.
import { describe, expect, it } from 'vitest';
import { rehearse, type RehearsalResult } from '../../rehearse/index.js';

let ran: RehearsalResult | undefined;
/** The rehearsal's result; the later cases say so when the first one could not run it. */
const result = (): RehearsalResult => {
  if (ran === undefined) throw new Error('the rehearsal did not run to its end (the first case says why)');
  return ran;
};

describe('npm run rehearse', () => {
  it('takes the project from nothing to a live, tuned, controlled service', { timeout: 240_000 }, async () => {
    ran = await rehearse();
    expect(ran.steps.map((s) => s.name)).toEqual([
      'publish a new service',
      'the room, before its first key',
      'the first signing key',
      'publish again: a new version',
      'the versions',
      'deploy the same package',
      'a service-wide setting',
      "a room's setting: the room closes",
      'one item update reopens it',
      'rotate to a new key',
      'remove the old key',
      'print the page upload',
      'run it as printed',
      'pause admissions',
      'an invite key',
      'an invitation',
      'the invited visitor gets in',
      'an ACL of staff addresses',
      'linked on a new version, activated',
      'a bypass rule on it',
      'the rule taken out',
      'resume admissions',
      'the room logs to stdout',
      'a target for the room',
      'the controller on log-tail',
      'its stop',
      'an HTTPS log endpoint',
      'activate the version holding it',
      'the room logs to it',
      'the controller as its receiver',
      'its stop',
    ]);
  });

  it('publishes a new service with the calls fastly compute publish makes on Fastly', () => {
    const publish = result().steps[0]!.calls;
    expect(publish.slice(0, 4)).toEqual([
      'POST /service 200',
      'GET /service/SERVICE_ID/version/1/domain 200',
      'GET /resources/stores/config 200',
      'GET /resources/stores/secret 200',
    ]);
    expect(publish.slice(-3)).toEqual([
      'PUT /service/SERVICE_ID/version/1/package 200',
      'PUT /service/SERVICE_ID/version/1/activate 200',
      'GET /service/SERVICE_ID/version/1/domain 200',
    ]);
    const sorted = [...publish].sort();
    expect(sorted.filter((c) => c.startsWith('POST /resources/stores/config '))).toHaveLength(2);
    expect(sorted.filter((c) => c.startsWith('POST /resources/stores/secret '))).toHaveLength(1);
    expect(sorted.filter((c) => c.startsWith('POST /service/SERVICE_ID/version/1/resource '))).toHaveLength(3);
    expect(sorted.filter((c) => c.startsWith('PUT /resources/stores/config/CONFIG_ID/item/'))).toEqual([
      'PUT /resources/stores/config/CONFIG_ID/item/room.main.allow_percentage 200',
      'PUT /resources/stores/config/CONFIG_ID/item/room.main.live 200',
      'PUT /resources/stores/config/CONFIG_ID/item/routing 200',
      'PUT /resources/stores/config/CONFIG_ID/item/settings 200',
    ]);
    expect(publish).toHaveLength(19);
    // a second publish clones the active version, uploads and activates; an unchanged package is not sent
    expect(result().steps[3]!.calls).toContain('PUT /service/SERVICE_ID/version/1/clone 200');
    expect(result().steps[5]!.calls.some((c) => c.includes('/package 200') && c.startsWith('PUT'))).toBe(false);
  });

  it('counts every API call the path made in one of its steps, and stays far inside the hourly budget', () => {
    const byStep = result().steps.reduce((n, s) => n + s.calls.length, 0);
    expect(byStep).toBe(result().counted);
    expect(result().counted).toBeLessThan(200);
    const failed = result()
      .steps.flatMap((s) => s.calls)
      .filter((c) => !/ 20\d$/.test(c));
    expect(failed).toEqual([]);
  });
});
