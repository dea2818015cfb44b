import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Frame, type FrameLocator, type Page } from 'playwright-core';
import { createMerchant } from '../../../examples/merchant/server.mjs';
import { BACKENDS } from '../../helpers/backends.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? new URL('../../../docs/screenshots/', import.meta.url).pathname
  : new URL('../../../.tmp/screenshots/', import.meta.url).pathname;
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
if (skip) process.stderr.write(`note: browser tests skipped: ${skip}\n`);

const backend = BACKENDS[0]!;

describe('checkout in a real browser (service and merchant on different origins)', { skip }, () => {
  let t: TestApp;
  let service: string;
  let merchantServer: Server;
  let merchant: string;
  let browser: Browser;

  before(async () => {
    t = await createTestApp(backend);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    service = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    merchantServer = createMerchant({
      api: service,
      secretKey: t.account.keys.secret_test,
      publishableKey: t.account.keys.publishable_test,
    });
    await new Promise<void>((resolve) => merchantServer.listen(0, 'localhost', resolve));
    merchant = `http://localhost:${(merchantServer.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => merchantServer?.close(resolve));
    await t?.close();
  });

  /** A fresh browser context that records every request and CSP violation. */
  async function open(url: string): Promise<{ page: Page; context: BrowserContext; requests: string[]; cspErrors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const requests: string[] = [];
    const cspErrors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    await page.addInitScript(() => {
      const w = window as unknown as { __messages: string[] };
      w.__messages = [];
      window.addEventListener('message', (e) => w.__messages.push(JSON.stringify(e.data)));
    });
    await page.goto(url);
    return { page, context, requests, cspErrors };
  }

  async function fillCard(scope: Page | Frame | FrameLocator, number: string): Promise<void> {
    await scope.locator('#card-number').fill(number);
    await scope.locator('#card-expiry').fill('1230');
    await scope.locator('#card-cvc').fill('123');
  }

  const paymentId = (text: string) => /pay_[0-9a-z]+/.exec(text)?.[0] ?? '';
  const api = async (path: string) => (await t.call('GET', path)).json();

  function assertOnlyOwnOrigins(requests: string[]): void {
    for (const url of requests) {
      const origin = new URL(url).origin;
      assert.ok(
        origin === service || origin === merchant || url.startsWith('data:') || url === 'about:blank',
        `third-party request: ${url}`,
      );
    }
  }

  test('card element: 4242 pays; the payment is succeeded in the API; the merchant page never sees the number', async () => {
    const { page, context, requests, cspErrors } = await open(merchant);
    const frame = page.frameLocator('#card-element iframe');
    await fillCard(frame, '4242 4242 4242 4242');
    await assert.doesNotReject(frame.locator('#card-brand').filter({ hasText: 'Visa' }).waitFor());
    await page.click('#pay-card');
    await page.locator('#card-result').filter({ hasText: 'Payment succeeded' }).waitFor();
    const id = paymentId(await page.locator('#card-result').innerText());
    assert.equal((await api(`/v1/payments/${id}`)).status, 'succeeded');

    const seen = await page.evaluate(() => {
      const iframe = document.querySelector<HTMLIFrameElement>('#card-element iframe')!;
      let readable: string;
      try {
        readable = iframe.contentWindow!.document.querySelector('input')!.value;
      } catch (err) {
        readable = `blocked: ${(err as Error).name}`;
      }
      return {
        contentDocument: iframe.contentDocument === null,
        readable,
        html: document.documentElement.outerHTML,
        messages: (window as unknown as { __messages: string[] }).__messages.join('\n'),
      };
    });
    assert.equal(seen.contentDocument, true, 'the frame’s document is not reachable from the merchant page');
    assert.equal(seen.readable, 'blocked: SecurityError');
    for (const text of [seen.html, seen.messages]) {
      assert.doesNotMatch(text, /4242\s?4242\s?4242\s?4242/);
    }
    assert.match(seen.messages, /"last4":"4242"/, 'the page received the token (brand and last 4 only)');
    assertOnlyOwnOrigins(requests);
    assert.deepEqual(cspErrors, []);
    await context.close();
  });

  test('card element: a declined card shows its message', async () => {
    const { page, context } = await open(merchant);
    await fillCard(page.frameLocator('#card-element iframe'), '4000 0000 0000 0002');
    await page.click('#pay-card');
    await page
      .locator('#card-result[data-kind="error"]')
      .filter({ hasText: /declined/i })
      .waitFor();
    await context.close();
  });

  test('card element: the 3-D Secure card completes authentication, and can fail it', async () => {
    for (const [button, expected] of [
      ['#complete', /Payment succeeded/],
      ['#fail', /bank could not confirm/],
    ] as const) {
      const { page, context } = await open(merchant);
      await fillCard(page.frameLocator('#card-element iframe'), '4000 0025 0000 3155');
      await page.click('#pay-card');
      await page.frameLocator('iframe[title^="Authenticate"]').locator(button).click();
      await page.locator('#card-result').filter({ hasText: expected }).waitFor();
      await context.close();
    }
  });

  test('card element: a live validation error is announced next to the field', async () => {
    const { page, context } = await open(merchant);
    const frame = page.frameLocator('#card-element iframe');
    await frame.locator('#card-number').fill('4242 4242 4242 4241');
    await frame.locator('#card-number').blur();
    await frame.locator('#card-number-error').filter({ hasText: 'invalid' }).waitFor();
    assert.equal(await frame.locator('#card-number').getAttribute('aria-invalid'), 'true');
    await context.close();
  });

  async function toHostedCheckout(): Promise<{ page: Page; context: BrowserContext; requests: string[]; cspErrors: string[] }> {
    const opened = await open(merchant);
    await opened.page.click('#pay-hosted');
    await opened.page.waitForURL(`${service}/checkout/**`);
    return opened;
  }

  test('hosted checkout: amount and description, strict CSP, 4242 pays and returns to success_url', async () => {
    const { page, context, requests, cspErrors } = await toHostedCheckout();
    assert.equal(await page.locator('[data-testid="amount"]').innerText(), '$15.00');
    assert.match(await page.locator('.description').innerText(), /ceramic mug/i);
    const sessionId = new URL(page.url()).pathname.split('/').pop() as string;
    const csp = (await page.request.get(page.url())).headers()['content-security-policy'] ?? '';
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /script-src 'self'/);

    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOTS}checkout-desktop.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SCREENSHOTS}checkout-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await fillCard(page, '4242424242424242');
    await page.click('#pay');
    await page.waitForURL(`${merchant}/success`);
    await page.locator('#thanks').waitFor();
    const session = await api(`/v1/checkout/sessions/${sessionId}`);
    assert.equal(session.status, 'complete');
    assert.equal((await api(`/v1/payments/${session.payment}`)).status, 'succeeded');
    assertOnlyOwnOrigins(requests);
    assert.deepEqual(cspErrors, []);
    await context.close();
  });

  test('hosted checkout: keyboard only, a declined card shows a clear message, then another card pays', async () => {
    const { page, context } = await toHostedCheckout();
    await page.locator('#card-number').focus();
    await page.keyboard.type('4000000000000002');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1230');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Enter');
    await page
      .locator('#message[data-kind="error"]')
      .filter({ hasText: /declined/i })
      .waitFor();
    await fillCard(page, '4242424242424242');
    await page.click('#pay');
    await page.waitForURL(`${merchant}/success`);
    await context.close();
  });

  test('hosted checkout: the 3-D Secure card completes authentication, and can fail it', async () => {
    const failed = await toHostedCheckout();
    await fillCard(failed.page, '4000002500003155');
    await failed.page.click('#pay');
    await failed.page.frameLocator('iframe[title^="Authenticate"]').locator('#fail').click();
    await failed.page
      .locator('#message[data-kind="error"]')
      .filter({ hasText: /bank could not confirm/ })
      .waitFor();
    await failed.context.close();

    const { page, context } = await toHostedCheckout();
    await fillCard(page, '4000002500003155');
    await page.click('#pay');
    await page.frameLocator('iframe[title^="Authenticate"]').locator('#complete').click();
    await page.waitForURL(`${merchant}/success`);
    await context.close();
  });

  test('the card element page may be framed anywhere; its CSP allows no inline script', async () => {
    const res = await fetch(`${service}/elements/card`);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors \*/);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(await res.text(), /<script>/);
  });
});
