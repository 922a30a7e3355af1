// A realistic routing value of N rooms and M rules (the size docs/routing.md quotes, and the
// performance case of issue 21): each room a path and a host route, rules of the usual kinds.

export function sampleRouting(rooms: number, rules: number): { rooms: unknown[]; default_room: string; rules: unknown[] } {
  const ids = Array.from({ length: rooms }, (_, i) => `room-${i}`);
  const kinds = (i: number): unknown => {
    const room = ids[i % rooms]!;
    switch (i % 5) {
      case 0:
        return { id: `hook-${i}`, if: { path: { prefix: `/webhooks/h${i}` }, method: 'POST' }, then: 'bypass' };
      case 1:
        return { id: `staff-${i}`, if: { any: [{ acl: `staff_${i}` }, { header: { name: 'x-staff', equals: `k${i}` } }] }, then: 'bypass' };
      case 2:
        return { id: `vip-${i}`, if: { cookie: `vip_${i}` }, then: `room:${room}` };
      case 3:
        return { id: `assets-${i}`, if: { path: { suffix: [`.v${i}.png`, `.v${i}.css`] } }, then: 'bypass' };
      default:
        return { id: `office-${i}`, if: { ip: [`10.${i}.0.0/16`, `2001:db8:${i.toString(16)}::/48`] }, then: `room:${room}` };
    }
  };
  return {
    rooms: ids.map((id, i) => ({ id, routes: [`/shop/s${i}`, { host: `s${i}.example.com`, path: '/drops', ignore_case: true }] })),
    default_room: ids[0]!,
    rules: Array.from({ length: rules }, (_, i) => kinds(i)),
  };
}
