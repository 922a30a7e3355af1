// A realistic routing value of N rooms and M rules (the size docs/routing.md quotes, and the
// performance case of issue 21): each room a path and a host route; of every ten rules, four webhook
// bypasses (path and method), two asset bypasses (path suffix), two VIP cookies sending to a room,
// one office network (inline CIDRs) and one staff ACL or country rule.

export function sampleRouting(
  rooms: number,
  rules: number,
): { rooms: unknown[]; default_room: string; rules: unknown[] } {
  const ids = Array.from({ length: rooms }, (_, i) => `room-${i}`);
  const rule = (i: number): unknown => {
    const room = ids[i % rooms]!;
    switch (i % 10) {
      case 0:
      case 1:
      case 2:
      case 3:
        return { id: `hook-${i}`, if: { path: { prefix: `/webhooks/h${i}` }, method: 'POST' }, then: 'bypass' };
      case 4:
      case 5:
        return { id: `assets-${i}`, if: { path: { suffix: [`.v${i}.png`, `.v${i}.css`] } }, then: 'bypass' };
      case 6:
      case 7:
        return { id: `vip-${i}`, if: { cookie: `vip_${i}` }, then: `room:${room}` };
      case 8:
        return {
          id: `office-${i}`,
          if: { ip: [`10.${i}.0.0/16`, `2001:db8:${i.toString(16)}::/48`] },
          then: `room:${room}`,
        };
      default:
        return i % 20 === 9
          ? {
              id: `staff-${i}`,
              if: { any: [{ acl: 'staff_ips' }, { header: { name: 'x-staff', equals: `k${i}` } }] },
              then: 'bypass',
            }
          : { id: `country-${i}`, if: { country: ['CA'], path: { prefix: '/shop' } }, then: `room:${room}` };
    }
  };
  return {
    rooms: ids.map((id, i) => ({
      id,
      routes: [`/shop/s${i}`, { host: `s${i}.example.com`, path: '/drops', ignore_case: true }],
    })),
    default_room: ids[0]!,
    rules: Array.from({ length: rules }, (_, i) => rule(i)),
  };
}
