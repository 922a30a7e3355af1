// pages/waiting.html serves both waiting pages: each page made from it reads as the template itself
// renders for that page, with the other page's words gone.
import Mustache from 'mustache';
import { describe, expect, it } from 'vitest';
import waiting from '../../../pages/waiting.html';
import { WAITING_PAGES, waitingPage } from '../../../src/core/answer/page-variants.js';
import { templateView } from '../../../src/core/pages/pages.js';
import { pageVars } from '../../pages/fake-room.js';

describe('the one waiting template', () => {
  it.each(WAITING_PAGES)('makes %s as the template renders it, with no trace of the other page', (name) => {
    const page = waitingPage(waiting, name);
    expect(page).not.toContain('isKeepWaiting');
    const view = templateView(pageVars(name));
    expect(Mustache.render(page, view)).toBe(Mustache.render(waiting, view));
  });

  it('gives each waiting page its own title, heading and first sentence', () => {
    const [start, keep] = WAITING_PAGES.map((name) => waitingPage(waiting, name));
    expect(start).toContain('<title>{{t.waitingTitleStart}}</title>');
    expect(start).toContain('{{t.waitingIntroStartRandom}}');
    expect(start).not.toContain('{{t.waitingIntroKeep');
    expect(keep).toContain('<h1>{{t.waitingTitleKeep}}</h1>');
    expect(keep).toContain('{{t.waitingIntroKeepFifo}}');
    expect(keep).toContain('{{t.waitingIntroKeepPrequeue}}');
    expect(start).not.toContain('waitingIntroKeepPrequeue');
    expect(keep).not.toContain('{{t.waitingIntroStart');
  });

  it('leaves a template without such sections as it is', () => {
    expect(waitingPage('<p>{{#isFifo}}line{{/isFifo}}</p>', 'keepwaiting')).toBe('<p>{{#isFifo}}line{{/isFifo}}</p>');
  });
});
