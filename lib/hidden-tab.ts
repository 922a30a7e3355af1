// A browser tab the test can put in the background, and the browser's Notification the page meets,
// for the waiting page's turn in Chromium's headless shell: the shell has no tabs (every page in it
// reads 'visible', whatever is opened over it) and no notifications (Notification.permission reads
// 'denied' whatever the context granted). An init script (page.addInitScript(recorders, state)) that
// answers the Page Visibility API as the test says (document.visibilityState and document.hidden, the
// visibilitychange event: window.__setHidden), stands in for Notification (its permission, the
// visitor's answer to the prompt, the notifications shown: window.__shown), and records the tone's
// oscillator and window.focus in window.__rec.
import type { Page } from 'playwright-core';

export interface Recorded {
  notes: { title: string; body: string }[];
  asks: number;
  tones: number;
  audio: string;
  focus: number;
}

/** How the stand-in Notification starts, and what the visitor answers to its prompt. */
export interface NotifyState {
  /** Absent: a browser without the Notification API. */
  permission?: NotificationPermission;
  answer?: NotificationPermission;
  /** Each document starts hidden (a tab left in the background before it loaded). */
  hidden?: boolean;
}

/**
 * Records what the page asks of the browser, stands in for its Notification, and lets the test hide
 * and show the tab.
 */
export function recorders(state: NotifyState): void {
  const w = window as unknown as Record<string, unknown> & { __rec: Recorded };
  const rec: Recorded = { notes: [], asks: 0, tones: 0, audio: 'none', focus: 0 };
  w.__rec = rec;
  let hidden = state.hidden === true;
  Object.defineProperty(Document.prototype, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible') });
  Object.defineProperty(Document.prototype, 'hidden', { get: () => hidden });
  w.__setHidden = (h: boolean) => {
    hidden = h;
    document.dispatchEvent(new Event('visibilitychange'));
  };
  const shown: unknown[] = [];
  w.__shown = shown;
  if (state.permission === undefined) delete w.Notification;
  else
    w.Notification = class {
      onclick: ((e: Event) => void) | null = null;
      closed = false;
      constructor(title: string, options?: NotificationOptions) {
        rec.notes.push({ title, body: options?.body ?? '' });
        shown.push(this);
      }
      close() {
        this.closed = true;
      }
      static get permission() {
        return state.permission;
      }
      static requestPermission() {
        rec.asks++;
        state.permission = state.answer ?? 'default';
        return Promise.resolve(state.permission);
      }
    };
  const oscillator = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function (this: AudioContext) {
    const o = oscillator.call(this);
    const start = o.start.bind(o);
    o.start = (when?: number) => {
      rec.tones++;
      const ctx = this;
      rec.audio = ctx.state;
      ctx.addEventListener('statechange', () => {
        rec.audio = ctx.state;
      });
      start(when);
    };
    return o;
  };
  window.focus = () => {
    rec.focus++;
  };
}

/** What the page's recorders (its init script) hold so far. */
export function recorded(page: Page): Promise<Recorded> {
  return page.evaluate(() => (window as unknown as { __rec: Recorded }).__rec);
}

/** Puts the page's tab in the background (true) or brings it forward, as the recorders answer the page. */
export function setHidden(page: Page, hidden: boolean): Promise<void> {
  return page.evaluate((h) => (window as unknown as { __setHidden(h: boolean): void }).__setHidden(h), hidden);
}
