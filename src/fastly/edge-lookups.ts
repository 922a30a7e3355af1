/// <reference types="@fastly/js-compute" />
// EdgeLookups (src/core/types.ts) from the Fastly runtime, for the routing rules: geolocation,
// device detection, Bot Management and ACLs. Each call is made only when a rule reaches it; what
// the service lacks (no such ACL, no Bot Management, no data for an address) answers null or
// 'missing' rather than throwing, and the rule that needed it then does not apply (docs/routing.md).
import { Acl } from 'fastly:acl';
import { Device } from 'fastly:device';
import { getGeolocationForIpAddress } from 'fastly:geolocation';
import { sandboxMemory } from '../core/memory/index.js';
import type { DeviceClass, EdgeLookups } from '../core/types.js';

/**
 * The Bot Management verdict js-compute (3.44 and later) puts on the downstream request. Its type
 * declarations do not list these yet, so they are read by name: `botAnalyzed` is false when detection
 * did not run (no Bot Management on the service), `botVerified` null then, `botCategory` a category
 * name or null.
 */
interface BotFields {
  botAnalyzed?: boolean | null;
  botVerified?: boolean | null;
  botCategory?: string | null;
}

// ACLs opened once per sandbox; null: the service has no ACL of that name.
const acls = sandboxMemory.table<string, Acl | null>('service', 'ACLs', Number.POSITIVE_INFINITY);

function openAcl(name: string): Acl | null {
  let acl = acls.get(name);
  if (acl === undefined) {
    try {
      acl = Acl.open(name);
    } catch {
      acl = null;
    }
    acls.set(name, acl);
  }
  return acl;
}

/** One class for a device, the most particular first: a tablet is not also counted a mobile. */
export function deviceClass(d: Device): DeviceClass | null {
  if (d.isBot) return 'bot';
  if (d.isTablet) return 'tablet';
  if (d.isMobile) return 'mobile';
  if (d.isSmartTV) return 'smarttv';
  if (d.isGameConsole) return 'gameconsole';
  if (d.isMediaPlayer) return 'mediaplayer';
  if (d.isDesktop) return 'desktop';
  return null;
}

export function fastlyEdgeLookups(event: FetchEvent): EdgeLookups {
  return {
    geo(ip) {
      try {
        const g = getGeolocationForIpAddress(ip);
        if (g === null) return null;
        return { country: g.country_code ?? null, continent: g.continent ?? null, asn: g.as_number ?? null };
      } catch {
        return null;
      }
    },
    device(userAgent) {
      try {
        const d = Device.lookup(userAgent);
        return d === null ? null : deviceClass(d);
      } catch {
        return null;
      }
    },
    bot() {
      try {
        const r = event.request as unknown as BotFields;
        if (r.botAnalyzed !== true) return null;
        const category = r.botCategory ?? null;
        return { verified: r.botVerified === true, category: category === 'none' ? null : category };
      } catch {
        return null;
      }
    },
    async acl(name, ip) {
      const acl = openAcl(name);
      if (acl === null) return 'missing';
      try {
        const hit = await acl.lookup(ip);
        if (hit === null) return 'none';
        return hit.action === 'ALLOW' ? 'allow' : 'block';
      } catch {
        // A lookup that fails is a test not made: the rule does not apply, whichever way it is written.
        return 'missing';
      }
    },
  };
}
