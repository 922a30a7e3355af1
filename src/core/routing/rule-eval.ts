// Evaluates a rule's condition (rule-parse.ts) for one request. Three-valued: a test that cannot be
// made here (no geolocation, no such ACL, no Bot Management, no client address) is UNKNOWN, and
// UNKNOWN stays UNKNOWN under `not`; `all` is false as soon as one part is false, `any` true as soon
// as one is true, else UNKNOWN when a part is. A rule applies only when its condition is TRUE, so a
// condition the edge cannot answer never sends anyone anywhere (docs/routing.md).
import { cidrHolds, parseIp, type IpAddress } from './cidr.js';
import { hostMatches, prefixMatches } from './route-match.js';
import type { Condition, Noted } from './rule-parse.js';
import type { RequestFacts } from '../request/index.js';
import type { DeviceClass, EdgeLookups } from '../types.js';

export const FALSE = 0;
export const TRUE = 1;
export const UNKNOWN = 2;
/** An ACL must be looked up first (asynchronously); the evaluation is then run again. */
const NEED_ACL = 3;
type Tri = typeof FALSE | typeof TRUE | typeof UNKNOWN;
type Step = Tri | typeof NEED_ACL;

/** Why a condition cannot be evaluated; the order gives each its bit in the condition's `noted`. */
const WHY = {
  noGeo: 'no geolocation here',
  noClientIp: 'the client address is unknown',
  noGeoData: 'no geolocation data for the client address',
  noDevice: 'no device detection here',
  noBot: 'no Bot Management here',
  botDidNotRun: 'Bot Management did not run on this request: is it enabled on the service?',
  noAcls: 'no ACLs here',
  aclMissing: 'the service has no ACL of that name, or its lookup failed',
} as const;
type Why = keyof typeof WHY;
const WHY_BIT = Object.fromEntries(Object.keys(WHY).map((k, i) => [k, 1 << i])) as Record<Why, number>;

type Geo = ReturnType<EdgeLookups['geo']>;
type Bot = ReturnType<EdgeLookups['bot']>;

/** What one request's rules have looked up so far: each lookup is made once, and only when a rule needs it. */
export class RuleContext {
  // Declared, and set in the constructor: a class field (even one without a value) compiles to an
  // initializer the runtime runs as one more interpreted function for each context made.
  declare readonly facts: RequestFacts;
  declare private readonly missingAcls: Set<string>;
  declare private ip: IpAddress | null | undefined;
  declare private geoAnswer: Geo | undefined;
  declare private deviceAnswer: DeviceClass | null | undefined;
  declare private botAnswer: Bot | undefined;
  declare private acls: Map<string, Awaited<ReturnType<EdgeLookups['acl']>>> | undefined;
  declare private neededAcl: string | null;
  /** The rule being evaluated, for the notes. */
  declare rule: string;
  /** The condition being tested, for unknown(). */
  declare private current: (Condition & Noted) | null;

  /**
   * `missingAcls`: the ACLs this sandbox has found missing (kept with the parsed routing): a service's
   * ACLs change only with a new version, so a missing one is not looked up again.
   */
  constructor(facts: RequestFacts, missingAcls: Set<string> = new Set()) {
    this.facts = facts;
    this.missingAcls = missingAcls;
    this.ip = undefined;
    this.geoAnswer = undefined;
    this.deviceAnswer = undefined;
    this.botAnswer = undefined;
    this.acls = undefined;
    this.neededAcl = null;
    this.rule = '';
    this.current = null;
  }

  /** UNKNOWN, said once per parse for each condition and reason. */
  private unknown(why: Why): Tri {
    const node = this.current!;
    const bit = WHY_BIT[why];
    if ((node.noted & bit) === 0) {
      node.noted |= bit;
      const what = node.k === 'acl' ? `acl "${node.name}"` : node.k;
      this.facts.note(`rule "${this.rule}": ${what} cannot be evaluated (${WHY[why]}), so the rule does not apply`);
    }
    return UNKNOWN;
  }

  private clientIp(): IpAddress | null {
    if (this.ip === undefined) this.ip = this.facts.clientIp === null ? null : parseIp(this.facts.clientIp);
    return this.ip;
  }

  private geo(): NonNullable<Geo> | Tri {
    const edge = this.facts.edge;
    if (edge === null) return this.unknown('noGeo');
    const ip = this.facts.clientIp;
    if (ip === null) return this.unknown('noClientIp');
    if (this.geoAnswer === undefined) this.geoAnswer = edge.geo(ip);
    return this.geoAnswer ?? this.unknown('noGeoData');
  }

  private codes(c: { k: 'country' | 'continent'; codes: ReadonlySet<string> }): Tri {
    const geo = this.geo();
    if (typeof geo === 'number') return geo;
    const code = c.k === 'country' ? geo.country : geo.continent;
    return code !== null && c.codes.has(code.toUpperCase()) ? TRUE : FALSE;
  }

  private asn(numbers: ReadonlySet<number>): Tri {
    const geo = this.geo();
    if (typeof geo === 'number') return geo;
    return geo.asn !== null && numbers.has(geo.asn) ? TRUE : FALSE;
  }

  private device(classes: ReadonlySet<DeviceClass>): Tri {
    const edge = this.facts.edge;
    if (edge === null) return this.unknown('noDevice');
    if (this.deviceAnswer === undefined) {
      const ua = this.facts.header('user-agent');
      this.deviceAnswer = ua === null || ua === '' ? null : edge.device(ua);
    }
    // An agent device detection does not know is in none of the classes (not UNKNOWN: it is common).
    return this.deviceAnswer !== null && classes.has(this.deviceAnswer) ? TRUE : FALSE;
  }

  private bot(categories: ReadonlySet<string> | null): Tri {
    const edge = this.facts.edge;
    if (edge === null) return this.unknown('noBot');
    if (this.botAnswer === undefined) this.botAnswer = edge.bot();
    const bot = this.botAnswer;
    if (bot === null) return this.unknown('botDidNotRun');
    if (!bot.verified) return FALSE;
    return categories === null || (bot.category !== null && categories.has(bot.category)) ? TRUE : FALSE;
  }

  private acl(name: string): Step {
    if (this.facts.edge === null) return this.unknown('noAcls');
    if (this.facts.clientIp === null) return this.unknown('noClientIp');
    if (this.missingAcls.has(name)) return this.unknown('aclMissing');
    const answer = this.acls?.get(name);
    if (answer === undefined) {
      this.neededAcl = name;
      return NEED_ACL;
    }
    if (answer === 'missing') return this.unknown('aclMissing');
    return answer === 'allow' ? TRUE : FALSE;
  }

  private header(c: { name: string; equals: string | null; prefix: string | null }): Tri {
    const v = this.facts.header(c.name);
    if (v === null) return FALSE;
    if (c.equals !== null) return v === c.equals ? TRUE : FALSE;
    if (c.prefix !== null) return v.startsWith(c.prefix) ? TRUE : FALSE;
    return TRUE;
  }

  private step(c: Condition): Step {
    const f = this.facts;
    switch (c.k) {
      // Combinators first: a string switch tests its cases in order, one by one, in the interpreter.
      case 'not': {
        const r = this.step(c.c);
        return r === TRUE ? FALSE : r === FALSE ? TRUE : r;
      }
      case 'all':
      case 'any': {
        const decisive = c.k === 'all' ? FALSE : TRUE;
        let result: Step = c.k === 'all' ? TRUE : FALSE;
        // Indexed loops, not for-of or callbacks, here and in the other per-request paths: the
        // runtime interprets, and an iterator or a closure per step is a measurable part of a rule's cost.
        for (let i = 0; i < c.cs.length; i++) {
          const r = this.step(c.cs[i]!);
          if (r === decisive || r === NEED_ACL) return r;
          if (r === UNKNOWN) result = UNKNOWN;
        }
        return result;
      }
      case 'method':
        return c.methods.has(f.method) ? TRUE : FALSE;
      case 'host':
        for (let i = 0; i < c.hosts.length; i++) if (hostMatches(c.hosts[i]!, f.host)) return TRUE;
        return FALSE;
      case 'path':
        if (c.mode === 'prefix') {
          for (let i = 0; i < c.prefixes.length; i++) if (prefixMatches(c.prefixes[i]!, f)) return TRUE;
          return FALSE;
        }
        {
          const path = c.ignoreCase ? f.lowerPath : f.path;
          const exact = c.mode === 'exact';
          for (let i = 0; i < c.values.length; i++)
            if (exact ? path === c.values[i] : path.endsWith(c.values[i]!)) return TRUE;
          return FALSE;
        }
      case 'cookie':
        return f.hasCookie(c.name) ? TRUE : FALSE;
      case 'query': {
        const v = f.query(c.name);
        return v !== null && (c.equals === null || v === c.equals) ? TRUE : FALSE;
      }
      case 'header':
        return this.header(c);
      case 'ip': {
        this.current = c;
        const ip = this.clientIp();
        if (ip === null) return this.unknown('noClientIp');
        for (let i = 0; i < c.blocks.length; i++) if (cidrHolds(c.blocks[i]!, ip)) return TRUE;
        return FALSE;
      }
      case 'country':
      case 'continent':
        this.current = c;
        return this.codes(c);
      case 'asn':
        this.current = c;
        return this.asn(c.numbers);
      case 'device':
        this.current = c;
        return this.device(c.classes);
      case 'verified_bot':
        this.current = c;
        return this.bot(c.categories);
      case 'acl':
        this.current = c;
        return this.acl(c.name);
    }
  }

  /**
   * TRUE, FALSE or UNKNOWN; a promise only when an ACL must be looked up first (each ACL once per
   * request), so a request whose rules need none costs no await per rule.
   */
  test(c: Condition): Tri | Promise<Tri> {
    const r = this.step(c);
    return r === NEED_ACL ? this.afterAcl(c) : r;
  }

  private async afterAcl(c: Condition): Promise<Tri> {
    for (;;) {
      const name = this.neededAcl!;
      // The lookups never throw (edge-lookups.ts); one that did would read as a missing ACL.
      const answer = await this.facts.edge!.acl(name, this.facts.clientIp!).catch(() => 'missing' as const);
      (this.acls ??= new Map()).set(name, answer);
      if (answer === 'missing') this.missingAcls.add(name);
      const r = this.step(c);
      if (r !== NEED_ACL) return r;
    }
  }
}
