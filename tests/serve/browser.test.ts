/**
 * `site serve` in front of a real build, in Chromium: every page runs under
 * the served Content-Security-Policy without a violation, and the inquiry
 * forms reach the store with JavaScript (JSON) and without (form post, 303,
 * re-rendered errors). Needs `npm run compile` (the build runs the compiled CLI).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltSite, buildSite, launchChromium } from '../e2e/harness.js';
import { type RunningServer, startServer } from '../../src/serve/server.js';
import { type Sandbox, sandbox } from './helpers.js';

// The small catalogue keeps this suite quick; SITE_E2E_DATA or SITE_E2E_DIST pick another.
process.env.SITE_E2E_DATA ??= 'tests/fixtures/build-small';

let built: BuiltSite;
let box: Sandbox;
let srv: RunningServer;
let browser: Browser;

beforeAll(async () => {
  built = await buildSite();
  box = sandbox();
  srv = await startServer({ dir: built.dist, dataDir: box.dataDir, port: 0, watch: false, minFillMs: 300, log: () => undefined });
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await srv?.close();
  box?.cleanup();
});

/** Records CSP violations from the first script on, and console errors. */
async function watchedPage(javaScriptEnabled = true): Promise<{ page: Page; violations: string[]; errors: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  const violations: string[] = [];
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.exposeFunction('__cspViolation', (v: string) => void violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI} at ${location.pathname}`);
    });
  });
  return { page, violations, errors };
}

describe('the built site under the served CSP', () => {
  it('runs every page without a CSP violation', async () => {
    const { page, violations, errors } = await watchedPage();
    const paths = [...new Set(built.routes.map((r) => r.path))];
    expect(paths.length).toBeGreaterThan(5);
    for (const path of paths) {
      const response = await page.goto(srv.url + path, { waitUntil: 'load' });
      expect(response?.status(), path).toBe(200);
      expect(response?.headers()['content-security-policy'], path).toContain("script-src 'self'");
    }
    await page.goto(`${srv.url}/no-such-page`);
    await page.waitForTimeout(200);
    expect(violations).toEqual([]);
    expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
    // Control: the policy is enforced and the watch sees it. An injected inline script is refused.
    await page.goto(`${srv.url}/`);
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.head.append(script);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.length).toBe(1);
    expect(violations[0]).toMatch(/^script-src/);
    await page.context().close();
  });
});

describe("a product's photographs (data/images/)", () => {
  it('loads the copy its width needs, a larger one when zoomed, and a thumbnail swaps in the other photo with its copies', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${srv.url}/herb-extract/ginger-extract`, { waitUntil: 'load' });
    const main = page.locator('[data-gallery] img[data-gallery-main]');
    const current = () => main.evaluate((img) => new URL((img as HTMLImageElement).currentSrc).pathname);
    // 45vw of 1280 px is 576 px: the 640-pixel copy, not the 1000-pixel original.
    await expect.poll(current).toBe('/images/photos/ginger-powder-640w.webp');
    await page.locator('[data-zoom-action="in"]').click();
    await page.locator('[data-zoom-action="in"]').click();
    // Zoomed, the browser is asked for an image as wide as the zoomed one: the original.
    await expect.poll(current).toBe('/images/photos/ginger-powder.png');
    const thumbs = page.locator('[data-gallery-thumb]');
    expect(await thumbs.count()).toBe(2);
    await thumbs.nth(1).click();
    expect(await main.getAttribute('src')).toBe('/images/photos/ginger-root.png');
    expect(await main.getAttribute('srcset')).toBe(
      '/images/photos/ginger-root-320w.webp 320w, /images/photos/ginger-root-640w.webp 640w, /images/photos/ginger-root.png 800w',
    );
    await expect.poll(() => main.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await expect.poll(current).toMatch(/^\/images\/photos\/ginger-root(-640w\.webp|\.png)$/);
    await context.close();
  });
});

describe('inquiry forms through site serve', () => {
  async function fill(page: Page, form: string, fields: Record<string, string>): Promise<void> {
    for (const [name, value] of Object.entries(fields)) {
      const control = page.locator(`${form} [name="${name}"]`);
      if ((await control.evaluate((el) => el.tagName)) === 'SELECT') await control.selectOption(value);
      else await control.fill(value);
    }
  }
  const contactForm = 'form[data-inquiry-form]';

  it('sends with JavaScript (JSON) and lands on /thanks', async () => {
    const { page, violations } = await watchedPage();
    await page.goto(`${srv.url}/contact-us`);
    await fill(page, contactForm, { name: 'Ada Buyer', email: 'ada@buyer.example', type: 'quote', message: 'Please quote 25 kg of curcumin 95%.' });
    await page.waitForTimeout(400);
    await Promise.all([page.waitForURL(`${srv.url}/thanks`), page.locator(`${contactForm} [type=submit]`).click()]);
    const stored = srv.store.list();
    expect(stored[0]).toMatchObject({ name: 'Ada Buyer', page: '/contact-us', spam: null });
    expect(violations).toEqual([]);
    await page.context().close();
  });

  it('works without JavaScript: errors re-rendered on the page, then 303 to /thanks', async () => {
    const { page } = await watchedPage(false);
    await page.goto(`${srv.url}/contact-us`);
    // The browser's own check accepts `bo@buyer`; the server's schema wants a domain with a dot.
    await fill(page, contactForm, { name: 'Bo Buyer', email: 'bo@buyer', type: 'free-sample', message: 'Sample of berberine, please.' });
    const response = await Promise.all([page.waitForNavigation(), page.locator(`${contactForm} [type=submit]`).click()]).then(([r]) => r);
    expect(response?.status()).toBe(400);
    const error = page.locator(`${contactForm} [data-error-for="email"]`);
    await expect.poll(() => error.isVisible()).toBe(true);
    expect(await error.textContent()).toBe('Please enter a valid e-mail address, like name@company.com.');
    // What the buyer typed is still there.
    expect(await page.locator(`${contactForm} [name="message"]`).inputValue()).toBe('Sample of berberine, please.');
    await page.locator(`${contactForm} [name="email"]`).fill('bo@buyer.example');
    await Promise.all([page.waitForURL(`${srv.url}/thanks`), page.locator(`${contactForm} [type=submit]`).click()]);
    expect(srv.store.list()[0]).toMatchObject({ name: 'Bo Buyer', email: 'bo@buyer.example', type: 'free-sample', page: '/contact-us' });
    await page.context().close();
  });
});
