import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../lib/suggest.js';

const settings = [
  'enabled',
  'allow_percentage',
  'allow_period_duration',
  'wait_period_duration',
  'new_users_per_minute',
  'event_start',
  'event_prequeue_start',
  'event_end',
];

describe('editDistance', () => {
  it('counts a missing, an extra, a wrong and a swapped letter as one edit each', () => {
    expect(editDistance('allw_percentage', 'allow_percentage')).toBe(1);
    expect(editDistance('alloww_percentage', 'allow_percentage')).toBe(1);
    expect(editDistance('allow_percentaqe', 'allow_percentage')).toBe(1);
    expect(editDistance('allow_percetnage', 'allow_percentage')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('closest', () => {
  it('names the setting a typo meant, nearest first', () => {
    expect(closest('allw_percentage', settings)).toEqual(['allow_percentage']);
    expect(closest('ALLOW_PERCENTAGE', settings)).toEqual(['allow_percentage']);
    expect(closest('wait_perod_duration', settings)[0]).toBe('wait_period_duration');
  });

  it('names the settings that contain a word given on its own', () => {
    expect(closest('percentage', settings)).toEqual(['allow_percentage']);
    expect(closest('start', settings)).toEqual(['event_start', 'event_prequeue_start']);
  });

  it('leaves out a name several edits farther than the nearest, though within the limit', () => {
    const more = [...settings, 'fallback_percentage', 'log_sample_rate'];
    // fallback_percentage is 5 edits from the typo, the limit for its length; allow_percentage is 1.
    expect(closest('allw_percentage', more)).toEqual(['allow_percentage']);
    expect(closest('falback_percentage', more)).toEqual(['fallback_percentage']);
  });

  it('names every setting that contains a word, the nearest first', () => {
    const more = ['fallback_percentage', ...settings];
    expect(closest('percentage', more)).toEqual(['allow_percentage', 'fallback_percentage']);
  });

  it('names nothing when nothing is close', () => {
    expect(closest('colour', settings)).toEqual([]);
    expect(closest('x', settings)).toEqual([]);
  });
});
