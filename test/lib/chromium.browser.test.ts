import { describe, expect, it } from 'vitest';
import { ChromiumMissingError, findChromium, launchBrowser } from '../../lib/chromium.js';
import { localeByTag } from '../../src/core/i18n/locales.js';

describe('the Chromium launch helper', () => {
  it('fails, saying how to install Chromium, when the browser is missing (browser suites never skip silently)', async () => {
    const error = await launchBrowser({}, '/nonexistent/chromium').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChromiumMissingError);
    expect((error as Error).message).toContain('/nonexistent/chromium');
    expect((error as Error).message).toContain('apt-get install -y chromium');
  });

  it('prefers CHROMIUM_PATH, then a system Chromium, and otherwise unpacks the packaged one (Linux x64)', async () => {
    expect(await findChromium({ CHROMIUM_PATH: '/opt/my/chrome' }, ['/bin/sh'])).toMatchObject({
      path: '/opt/my/chrome',
      source: 'CHROMIUM_PATH',
    });
    expect(await findChromium({}, ['/nonexistent', '/bin/sh'])).toMatchObject({ path: '/bin/sh', source: 'system' });
    const packaged = await findChromium({}, ['/nonexistent']);
    if (process.platform === 'linux' && process.arch === 'x64') {
      expect(packaged).toMatchObject({ source: '@sparticuz/chromium' });
      expect(packaged!.path).toMatch(/node_modules\/\.cache\/waiting-room-chromium\/[\d.]+\/chromium$/);
    } else {
      expect(packaged).toBeNull();
    }
  });

  it('starts a browser whose contexts do not share cookies', async () => {
    const browser = await launchBrowser();
    try {
      const a = await browser.newContext();
      const b = await browser.newContext();
      await a.addCookies([{ name: 'waiting_room', value: 'x', url: 'https://shop.test/' }]);
      expect(await b.cookies('https://shop.test/')).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('draws Arabic, Persian, Japanese, Korean, Chinese, Thai, Hindi, Greek and Cyrillic pages with glyphs, not blanks, in the packaged browser', async () => {
    const packaged = await findChromium({}, []);
    if (packaged === null) {
      expect(process.platform === 'linux' && process.arch === 'x64').toBe(false);
      return;
    }
    const browser = await launchBrowser({ env: packaged.env }, packaged.path);
    try {
      const page = await browser.newPage();
      for (const tag of [
        'ar-EG',
        'fa-IR',
        'ja-JP',
        'ko-KR',
        'zh-CN',
        'zh-TW',
        'th-TH',
        'hi-IN',
        'el-GR',
        'uk-UA',
        'bg-BG',
      ]) {
        // The page's own words: every letter of the waiting page's first sentences, each drawn alone.
        const catalog = localeByTag(tag)!.catalog;
        const text = [catalog.waitingTitleKeep, catalog.waitingIntroKeepRandom, catalog.waitingIntroKeepPrequeue].join(
          '',
        );
        await page.setContent(`<html lang="${tag}"><body></body></html>`);
        const drawn = await page.evaluate(
          (letters) => {
            const canvas = document.createElement('canvas');
            canvas.width = canvas.height = 48;
            const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
            // The pixels a letter leaves, as a string of on and off: a missing glyph draws as a blank or as
            // the one box every missing glyph shares (the .notdef of a private-use character).
            const draw = (letter: string): string => {
              ctx.clearRect(0, 0, 48, 48);
              ctx.font = '32px sans-serif';
              ctx.fillText(letter, 8, 36);
              const data = ctx.getImageData(0, 0, 48, 48).data;
              let bits = '';
              for (let i = 3; i < data.length; i += 4) bits += data[i]! > 127 ? '1' : '0';
              return bits;
            };
            const missing = draw('\uE000');
            return letters.map((letter) => {
              const bits = draw(letter);
              return { letter, ink: bits.split('1').length - 1, missing: bits === missing };
            });
          },
          [...new Set(text)].filter((c) =>
            /[\u0370-\u03ff\u0400-\u04ff\u0600-\u06ff\u0900-\u097f\u0e00-\u0e7f\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]/.test(
              c,
            ),
          ),
        );
        expect(drawn.length, tag).toBeGreaterThan(20);
        const blank = drawn.filter((d) => d.ink === 0 || d.missing).map((d) => d.letter);
        expect(blank, `${tag}: letters drawn blank`).toEqual([]);
      }
    } finally {
      await browser.close();
    }
  });
});
