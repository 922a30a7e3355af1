// The controller with restart and failover around it (docs/control/failover.md#restarting-it-safely):
// the plain Controller's tick, step by step, with the failover's own steps between them. Lines counted
// before a restart are skipped before the controller counts them; each read of the store is checked
// for another controller's heartbeat; while learning the models get no settings and the controller
// holds; the writes carry the lease and the heartbeat; the state file is offered after each tick.
import { Controller, type ControlLoop, type ControllerOptions } from '../controller.js';
import type { DashboardSnapshot } from '../types.js';
import type { Failover } from './failover.js';
import { HEARTBEAT_KEY } from './heartbeat.js';

export interface FailoverControllerOptions extends Omit<ControllerOptions, 'restore'> {
  /** The state file, learning mode, the heartbeat and the lease (failover.ts). */
  failover: Failover;
}

export class FailoverController implements ControlLoop {
  private readonly c: Controller;
  private readonly f: Failover;

  constructor(private readonly o: FailoverControllerOptions) {
    this.f = o.failover;
    const restore = Object.fromEntries(this.f.savedRooms().map((id) => [id, this.f.restoreFor(id)]));
    this.c = new Controller({ ...o, ...(o.rooms === undefined ? { restore } : {}) });
  }

  /** The failover itself (its heartbeat, what it restores). */
  get failover(): Failover {
    return this.f;
  }

  /** One text line from the source: counted before a restart (the log source gives it again), counted once. */
  line(text: string, nowMs: number): void {
    const line = this.c.parse(text, nowMs);
    if (line !== null && this.f.fresh(line)) this.c.count(line, text, nowMs);
  }

  source(error: string | null, dead: boolean): void {
    this.c.source(error, dead);
  }

  requestRead(why: string): void {
    this.c.requestRead(why);
  }

  async tick(nowMs: number): Promise<void> {
    await this.c.readStore(nowMs, (values) => this.f.afterRead(values, nowMs));
    // While learning, the models get the settings only when it ends (failover.ts): they take the edge's chances then as fixed.
    if (this.c.hasRead && !this.f.withholdSettings(nowMs)) this.c.giveSettings(nowMs);
    this.c.hold(this.c.conditions(nowMs) ?? this.f.holdWhy(nowMs));
    // The planner thread's models are saved as of the plan: the POP times that go with them are of then.
    // Taken only when a save is due (they hold the keys of the last seconds' lines).
    const atPlan = this.c.savedAtPlan;
    const pops = atPlan && this.f.saveDue(nowMs) ? this.f.popsNow() : undefined;
    const plans = await this.c.plan(nowMs);
    // The lease on each schedule and the heartbeat (failover.ts); the models are told of their own texts.
    const out = this.f.outgoing(plans, this.c.values, nowMs, this.beatCosts);
    if (out.plans.size > 0 || Object.keys(out.extra).length > 0) {
      const stored = await this.c.write(out.plans, out.extra, plans, nowMs);
      if (stored !== null) this.f.wrote(stored, nowMs);
    }
    if (!atPlan || pops !== undefined) await this.f.save(nowMs, () => this.c.savedRooms(), pops);
  }

  /** At shutdown, after the last tick: the state file written whatever its clock (the models as of that tick's plan). */
  async finalSave(nowMs: number): Promise<void> {
    if (!this.c.savesFromThread) return this.f.save(nowMs, () => this.c.savedRooms(), undefined, true);
    // The planner thread's models after every line so far: the POP times of now go with them.
    const pops = this.f.popsNow();
    const saved = await this.c.saveNow();
    await this.f.save(nowMs, () => saved, pops, true);
  }

  /** Whether the heartbeat costs a call of its own beside other writes (the CLI writes a key a call). */
  private get beatCosts(): boolean {
    const calls = this.o.store.callsFor;
    return (
      calls !== undefined && calls({ [HEARTBEAT_KEY]: '{}', 'room.x.live': '{}' }) > calls({ 'room.x.live': '{}' })
    );
  }

  snapshot(nowMs: number): DashboardSnapshot {
    return { ...this.c.snapshot(nowMs), failover: this.f.view(nowMs) };
  }
}

/** The controller, wrapped in restart and failover when it is given one (the simulator's controllers that restart). */
export function controlLoop(o: ControllerOptions & { failover?: Failover }): ControlLoop {
  const { failover, ...plain } = o;
  return failover === undefined ? new Controller(plain) : new FailoverController({ ...plain, failover });
}
