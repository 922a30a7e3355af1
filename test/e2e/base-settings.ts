// The room's settings the end-to-end suites start from, and the setting under which a test names its
// visitors itself.
import type { Settings } from '../../lib/room-host.js';

/** The settings every decision row and suite starts from; long windows so no token crosses a boundary mid-test. */
export const BASE_SETTINGS: Settings = {
  enabled: 'true',
  allow_percentage: '50',
  wait_period_duration: '60',
  allow_period_duration: '3600',
  cookie_lifetime: '7200',
};
/** The waiting window of BASE_SETTINGS, seconds. */
export const D = 60;
/** The allow period of BASE_SETTINGS, seconds. */
export const A = 3600;

/** Settings under which a visitor is named by the `x-visitor` header, so a test can pick among many. */
export const VISITOR_IDENTITY: Settings = { identity: 'header:x-visitor' };
