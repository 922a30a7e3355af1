// Where a token that holds a place stands (queue.ts), and the part of it a result carries.
import { holdsPlace, placeOf, type Place } from './queue.js';
import type { DecideResult } from './result.js';
import type { TokenClaims } from '../types.js';
import type { Visit } from './visit.js';

/**
 * Where a token that holds a place stands, for the page and the log (never before the start); null at
 * once, without a promise to wait for, for a token that holds none (a draw's).
 */
export function placeFor(visit: Visit, claims: TokenClaims, key: CryptoKey): Promise<Place | null> | null {
  if (claims.arr === undefined || !holdsPlace(claims)) return null;
  return placeOf({ ...claims, arr: claims.arr }, key, visit.keys, visit.config, visit.nowSec, visit.diag);
}

/** A place as a result carries it. */
export function placeParts(place: Place | null): DecideResult['place'] {
  return place === null ? null : { pos: place.pos, cursor: place.cursor, queue: place.queue };
}
