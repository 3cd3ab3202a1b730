// harness.js: the Firefox and WebKit engines of the smoke suite (tests/engines/smoke.js), each
// behind one small adapter, and the test server they share (not a test file itself).
//
//   const engine = await startEngine('firefox');   // or 'webkit'
//   await engine.goto(`${engine.url}/web/`);
//   await engine.evaluate((a, b) => a + b, 1, 2);  // → 3 (arguments and result: JSON values)
//   await engine.typeKeys('3 March');              // real key events into the focused element
//   await engine.inFrame('iframe', () => self.origin);
//   engine.problems();                             // errors and rejections the pages recorded
//   await engine.close();
//
// Firefox: Debian's firefox-esr, headless, over WebDriver BiDi with puppeteer-core (a fresh
// temporary profile; no geckodriver). WebKit: Debian's WebKitWebDriver driving the WebKitGTK
// MiniBrowser on a private Xvfb display the harness starts and stops, over plain W3C WebDriver
// HTTP calls with fetch(). WebKit's WebDriver shows no console, so the server in front
// of scripts/serve.mjs puts RECORDER inline at the top of every HTML page it serves (both
// engines, iframes too): it keeps window errors, unhandled rejections and console.error/warn
// calls in window.__attnlabProblems, which problems() reads from every page visited. Firefox's
// own console errors (puppeteer's console and pageerror events) are added to those.
// Deliberately never downloads a browser: a missing one is a loud failure naming the apt-get
// package (scripts/setup.sh installs them), never a silent skip.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOTS = path.join(REPO_ROOT, 'tests', 'browser', 'screenshots');

export const FIREFOX = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
export const MINIBROWSER =
  process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/**
 * Runs first in every page (inline, so it adds no request): records what a console would show.
 * A page's own console.error/warn calls are recorded too, as the Chromium harness records them.
 */
export const RECORDER = `<script>(function () {
  var list = window.__attnlabProblems = [];
  function text(v) { try { return v && v.stack ? String(v.stack).split('\\n')[0] + ' ' + v.message : typeof v === 'string' ? v : JSON.stringify(v); } catch (e) { return String(v); } }
  addEventListener('error', function (e) {
    if (e.target && e.target !== window) list.push('failed to load: <' + e.target.localName + (e.target.rel ? ' rel=' + e.target.rel : '') + '> ' + (e.target.src || e.target.href || ''));
    else list.push('page error: ' + e.message + ' (' + e.filename + ':' + e.lineno + ')');
  }, true);
  addEventListener('unhandledrejection', function (e) { list.push('unhandled rejection: ' + text(e.reason)); });
  ['error', 'warn'].forEach(function (kind) {
    var original = console[kind];
    console[kind] = function () { list.push('console.' + kind + ': ' + Array.prototype.map.call(arguments, text).join(' ')); return original.apply(console, arguments); };
  });
})();</script>`;

/**
 * scripts/serve.mjs over the repository, behind a proxy that puts RECORDER at the top of every
 * HTML page: { url, close() }. Everything else (status, headers, bodies) passes through as is.
 */
export async function startRecordingServer() {
  const inner = await startServer({ root: REPO_ROOT, port: 0 });
  const target = new URL(inner.url);
  const server = createServer((req, res) => {
    const up = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        const type = String(answer.headers['content-type'] ?? '');
        if (!type.startsWith('text/html')) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks = [];
        answer.on('data', (c) => chunks.push(c));
        answer.on('end', () => {
          const html = Buffer.concat(chunks)
            .toString('utf8')
            .replace(/<head>/i, (m) => `${m}${RECORDER}`);
          const body = Buffer.from(html);
          res.writeHead(answer.statusCode ?? 502, {
            ...answer.headers,
            'content-length': body.length,
          });
          res.end(req.method === 'HEAD' ? undefined : body);
        });
      },
    );
    up.on('error', (err) => {
      res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(up);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    async close() {
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
      await inner.close();
    },
  };
}

/** A function and its arguments as the source of a call expression (arguments as JSON). */
const callSource = (fn, args) =>
  `(${fn.toString()})(${args.map((a) => JSON.stringify(a) ?? 'undefined').join(', ')})`;

/** Reads the recorder's list in the current document (and resets it: each entry is read once). */
const takeProblems = () => {
  const list = window.__attnlabProblems ?? ['no recorder in this page'];
  return list.splice(0, list.length);
};

/**
 * One engine: { name, url, goto, evaluate, waitFor, typeKeys, inFrame, setSize, screenshot,
 * problems, close }. name: 'firefox' or 'webkit'.
 */
export async function startEngine(name) {
  const server = await startRecordingServer();
  let engine;
  try {
    engine = name === 'firefox' ? await firefox() : name === 'webkit' ? await webkit() : null;
    if (!engine) throw new Error(`unknown engine ${name}`);
  } catch (err) {
    await server.close();
    throw err;
  }
  const seen = [];
  const problems = async () => {
    seen.push(
      ...engine.ownProblems.splice(0),
      ...(await engine
        .evaluate(takeProblems)
        .catch((e) => [`could not read the recorder: ${e.message}`])),
    );
    return [...seen];
  };
  return {
    name,
    url: server.url,
    ...engine,
    /** Navigate (after collecting the problems the current page recorded). */
    async goto(url) {
      if (engine.visited) await problems();
      engine.visited = true;
      await engine.goto(url);
    },
    /** Poll fn(...args) in the page until it returns a truthy value (returned); throws after timeout ms. */
    async waitFor(fn, args = [], { timeout = 20000, what = fn.toString().slice(0, 120) } = {}) {
      const end = Date.now() + timeout;
      let last;
      for (;;) {
        last = await engine.evaluate(fn, ...args);
        if (last) return last;
        if (Date.now() > end)
          throw new Error(
            `${name}: timed out after ${timeout} ms waiting for ${what} (last: ${JSON.stringify(last)})`,
          );
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    /** Every problem recorded so far, in every page visited, this one included. */
    problems,
    /** WebKit only: a fresh session after the page crashed (the dead page's list is lost). */
    restart:
      engine.restart &&
      (async () => {
        engine.visited = false;
        await engine.restart();
      }),
    async screenshot(file) {
      await mkdir(SCREENSHOTS, { recursive: true });
      await writeFile(path.join(SCREENSHOTS, `${file}.png`), await engine.png());
    },
    async close() {
      await engine.close().catch(() => {});
      await server.close();
    },
  };
}

// ---------------------------------------------------------------- Firefox (puppeteer-core, BiDi)

async function firefox() {
  if (!existsSync(FIREFOX)) {
    throw new Error(
      `Firefox not found at ${FIREFOX}; install it with: apt-get install -y firefox-esr (or set FIREFOX_PATH).`,
    );
  }
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    // no update checks, telemetry or first-run pages: the suite counts every request
    extraPrefsFirefox: { 'app.update.enabled': false, 'browser.shell.checkDefaultBrowser': false },
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const ownProblems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') ownProblems.push(`console.error (firefox): ${msg.text()}`);
  });
  page.on('pageerror', (err) => ownProblems.push(`page error (firefox): ${err.message}`));
  const frameOf = async (selector) => {
    const handle = await page.waitForSelector(selector);
    return handle.contentFrame();
  };
  return {
    ownProblems,
    goto: (url) => page.goto(url, { waitUntil: 'load' }),
    evaluate: (fn, ...args) => page.evaluate(callSource(fn, args)),
    typeKeys: (text) => page.keyboard.type(text),
    async inFrame(selector, fn, ...args) {
      return (await frameOf(selector)).evaluate(callSource(fn, args));
    },
    setSize: (width, height) => page.setViewport({ width, height }),
    png: () => page.screenshot({ fullPage: true }),
    close: () => browser.close(),
  };
}

// ---------------------------------------------------------------- WebKit (WebKitWebDriver, W3C WebDriver)

/** A free TCP port on 127.0.0.1 (for WebKitWebDriver, which takes one on its command line). */
async function freePort() {
  const s = createNetServer();
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/**
 * A private X server for MiniBrowser: Xvfb on the first free display number (-displayfd), no TCP,
 * and no xauth (the server accepts local clients: it lives only as long as the test).
 * { name: ':N', close() }. Not xvfb-run: its clean-up fails now and then (exit 5) when a WebKit
 * process still holds its temporary Xauthority folder, which would fail a passing run.
 */
async function startXvfb() {
  const xvfb = process.env.XVFB_PATH || '/usr/bin/Xvfb';
  if (!existsSync(xvfb))
    throw new Error(
      `${xvfb} not found; WebKit's MiniBrowser needs an X display: apt-get install -y xvfb`,
    );
  const server = spawn(
    xvfb,
    ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const errors = [];
  server.stderr.on('data', (d) => errors.push(String(d)));
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const number = await new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`Xvfb did not start in 10 s: ${errors.join('')}`)),
      10000,
    );
    server.stdio[3].on('data', (d) => {
      text += d;
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(text.trim());
      }
    });
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${errors.join('')}`));
    });
  });
  return {
    name: `:${number}`,
    async close() {
      server.kill();
      await exited;
    },
  };
}

async function webkit() {
  for (const [file, pkg] of [
    [WEBKIT_DRIVER, 'webkit2gtk-driver'],
    [MINIBROWSER, 'libwebkit2gtk-4.1-0'],
  ]) {
    if (!existsSync(file))
      throw new Error(`${file} not found; install it with: apt-get install -y ${pkg} xvfb`);
  }
  const display = await startXvfb();
  const port = await freePort();
  const log = [];
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DISPLAY: display.name, WAYLAND_DISPLAY: '' },
  });
  driver.stdout.on('data', (d) => log.push(String(d)));
  driver.stderr.on('data', (d) => log.push(String(d)));
  const exited = new Promise((resolve) => driver.once('exit', resolve));
  const base = `http://127.0.0.1:${port}`;

  /** One WebDriver command: its value, or an Error naming the command and WebDriver's message. */
  async function wd(method, route, body) {
    const res = await fetch(base + route, {
      method,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) {
      const message = `${json.value?.error}: ${json.value?.message}`;
      const err = new Error(`WebDriver ${method} ${route}: ${message}`);
      // WebKit's web process died under the session (WebDriver names it outright, or, mid-call,
      // cannot read back the element it looked up or the script's result): say so, with the
      // driver's last words
      if (/page crash|Could not parse (element info|script result)/.test(message)) {
        err.crashed = true;
        err.message += `\n(the WebKit page crashed; WebKitWebDriver's log ends:)\n${log.join('').slice(-2000)}`;
      }
      throw err;
    }
    return json.value;
  }

  /** A new MiniBrowser session at 1280 × 900; its route prefix. */
  async function newSession() {
    const { sessionId } = await wd('POST', '/session', {
      capabilities: {
        alwaysMatch: {
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
        },
      },
    });
    const route = `/session/${sessionId}`;
    await wd('POST', `${route}/window/rect`, { width: 1280, height: 900 });
    return route;
  }

  let s;
  try {
    const end = Date.now() + 10000;
    for (;;) {
      try {
        if ((await wd('GET', '/status')).ready) break;
      } catch (err) {
        if (Date.now() > end)
          throw new Error(`WebKitWebDriver did not start: ${err.message}\n${log.join('')}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    s = await newSession();
  } catch (err) {
    driver.kill();
    await exited;
    await display.close();
    throw err;
  }
  // The page's function, called with its JSON arguments; a promise is awaited; a throw is
  // returned as { __error } and rethrown here (WebDriver's own message would drop the stack).
  const asyncScript = (source) => `const done = arguments[0];
    Promise.resolve().then(() => ${source}).then((value) => done({ value: value === undefined ? null : value }), (e) => done({ __error: String(e && e.stack || e) }));`;
  const evaluate = async (fn, ...args) => {
    const out = await wd('POST', `${s}/execute/async`, {
      script: asyncScript(callSource(fn, args)),
      args: [],
    });
    if (out && out.__error) throw new Error(`in WebKit: ${out.__error}`);
    return out.value;
  };
  return {
    ownProblems: [],
    goto: (url) => wd('POST', `${s}/url`, { url }),
    evaluate,
    /** Key events into the focused element, with WebDriver's actions (one key down/up per character). */
    async typeKeys(text) {
      const actions = [...text].flatMap((c) => [
        { type: 'keyDown', value: c },
        { type: 'keyUp', value: c },
      ]);
      await wd('POST', `${s}/actions`, { actions: [{ type: 'key', id: 'keyboard', actions }] });
      await wd('DELETE', `${s}/actions`);
    },
    async inFrame(selector, fn, ...args) {
      const element = await wd('POST', `${s}/element`, { using: 'css selector', value: selector });
      await wd('POST', `${s}/frame`, { id: element });
      try {
        return await evaluate(fn, ...args);
      } finally {
        await wd('POST', `${s}/frame/parent`, {});
      }
    },
    setSize: (width, height) => wd('POST', `${s}/window/rect`, { width, height }),
    png: async () => Buffer.from(await wd('GET', `${s}/screenshot`), 'base64'),
    /** After a crash: end the dead session and open a new one (a fresh MiniBrowser). */
    async restart() {
      await wd('DELETE', s).catch(() => {});
      s = await newSession();
    },
    async close() {
      await wd('DELETE', s).catch(() => {});
      driver.kill();
      await exited;
      await display.close();
    },
  };
}
