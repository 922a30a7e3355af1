// The settings of scheduled events and of the queue's cursor (docs/events.md), parsed into strict
// types; each unusable value is a problem named by its key, and the safe reading of it.
import { MAX_MESSAGE_CHARS } from './declared.js';
import type { Reader } from './config-reader.js';
import type { EventSchedule, QueueCount, QueueCursor } from '../types.js';

// ISO 8601 with a zone: a time without one would mean a different moment at every POP.
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** Epoch seconds of an ISO 8601 time with a zone, or null (and a problem) when it is not one. */
function isoTime(r: Reader, key: string): number | null {
  const value = r.raw(key);
  if (value === null) return null;
  const m = ISO_TIME.exec(value);
  const ms = m ? Date.parse(value.toUpperCase()) : Number.NaN;
  // Date.parse rolls 2026-02-30 over to March; a time that does not round-trip its date is a typo.
  const day = Number.isFinite(ms) ? new Date(ms + zoneOffsetMs(m![7]!)).toISOString().slice(0, 10) : '';
  if (!Number.isFinite(ms) || day !== `${m![1]}-${m![2]}-${m![3]}`) {
    r.problem(key, value, 'must be an ISO 8601 time with a zone, such as 2026-12-01T10:00:00Z', 'ignoring it');
    return null;
  }
  return Math.floor(ms / 1000);
}

function zoneOffsetMs(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  return sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
}

export function parseEvent(r: Reader): EventSchedule | null {
  const start = isoTime(r, 'event_start');
  let prequeueStart = isoTime(r, 'event_prequeue_start');
  let end = isoTime(r, 'event_end');
  const endAction = r.oneOf('event_end_action');
  if (start === null) {
    if (prequeueStart !== null || end !== null)
      r.problem(
        'event_start',
        '',
        'is missing, so there is no event',
        'event_prequeue_start and event_end are ignored',
      );
    return null;
  }
  if (prequeueStart !== null && prequeueStart >= start) {
    r.problem(
      'event_prequeue_start',
      r.raw('event_prequeue_start') ?? '',
      'must be before event_start',
      'there is no pre-queue',
    );
    prequeueStart = null;
  }
  if (end !== null && end <= start) {
    r.problem('event_end', r.raw('event_end') ?? '', 'must be after event_start', 'the event does not end');
    end = null;
  }
  return { prequeueStart, start, end, endAction };
}

/** `message`, or one language's `message.TAG`: at most MAX_MESSAGE_CHARS characters. */
export function parseMessage(r: Reader, key = 'message'): string {
  const value = r.raw(key);
  if (value === null) return '';
  if (value.length > MAX_MESSAGE_CHARS) {
    r.problem(
      key,
      value.slice(0, 40),
      `is longer than ${MAX_MESSAGE_CHARS} characters`,
      `showing the first ${MAX_MESSAGE_CHARS}`,
    );
    return value.slice(0, MAX_MESSAGE_CHARS);
  }
  return value;
}

const NUMBER = '\\d{1,15}(?:\\.\\d{1,9})?';
const CURSOR = new RegExp(`^(\\d{1,15}):(${NUMBER}):(${NUMBER})$`);
const COUNT = new RegExp(`^(${NUMBER})=(\\d{1,12})$`);

export function parseCursor(r: Reader): QueueCursor | null {
  const key = 'queue_cursor';
  const value = r.raw(key);
  if (value === null) return null;
  const m = CURSOR.exec(value);
  const cursor = m ? { at: Number(m[1]), pos: Number(m[2]), speed: Number(m[3]) } : null;
  if (
    cursor === null ||
    !Number.isSafeInteger(cursor.at) ||
    !Number.isFinite(cursor.pos) ||
    !Number.isFinite(cursor.speed)
  ) {
    r.problem(
      key,
      value.slice(0, 60),
      'must be T:POS:SPEED (epoch seconds, a position, positions a second)',
      'treating it as unset',
    );
    return null;
  }
  return cursor;
}

export function parseCounts(r: Reader, maxEntries: number): QueueCount[] {
  const key = 'queue_counts';
  const value = r.raw(key);
  if (value === null) return [];
  const counts: QueueCount[] = [];
  for (const part of value.split(',')) {
    const m = COUNT.exec(part.trim());
    const next = m ? { pos: Number(m[1]), count: Number(m[2]) } : null;
    const last = counts[counts.length - 1];
    if (next === null || (last !== undefined && (next.pos < last.pos || next.count < last.count))) {
      r.problem(
        key,
        part.trim().slice(0, 40),
        'must be POS=COUNT entries with both ascending',
        'treating queue_counts as unset',
      );
      return [];
    }
    counts.push(next);
  }
  if (counts.length > maxEntries) {
    r.problem(key, `${counts.length} entries`, `holds more than ${maxEntries} entries`, 'treating it as unset');
    return [];
  }
  return counts;
}
