// fetch-problem.js: why a file the page needs (the .wasm, a model) could not be fetched, and the
// sentence that says so with the fix, in the page's language.
//
//   const problem = await diagnoseFetch(url);          // { kind: 'file' | 'cors' | 'unreachable' | 'http' | 'ok', url, status }
//   el.textContent = fetchProblem(lang, 'wasm', problem);  // what failed, why, and the fix
//
// A failed fetch() is one TypeError whatever the cause; a second look tells them apart: a page
// opened as file:// can fetch nothing; a request the browser refused for want of an
// Access-Control-Allow-Origin header still succeeds in mode 'no-cors' (an opaque response), and a
// server that does not answer fails both. Deliberately holds no DOM code and no strings
// (i18n.js): callers put the sentence in textContent. web/load-guard.js does the same for the page
// code itself, as a classic script, where no module can load.

import { simdSupported } from '../../wasm/index.js';
import { sentences, t } from './i18n.js';

/** The .wasm a plain init() fetches (wasm/loader.js: beside wasm/index.js; the SIMD build where
 * this engine validates it), for diagnoseFetch when init() fails. */
export function wasmUrl() {
  return new URL(
    simdSupported() ? '../../wasm/attnlab.wasm' : '../../wasm/attnlab-scalar.wasm',
    import.meta.url,
  ).href;
}

/** What failed, by the `what` argument of fetchProblem. */
const SUBJECT = { code: 'load.code', wasm: 'load.wasm', model: 'load.model' };

/**
 * Why url cannot be fetched: { kind, url, status }. kind 'file' (this page or url is file:),
 * 'http' (the server answered status >= 400), 'cors' (the browser refused the answer: another
 * origin, or a redirect to one, without Access-Control-Allow-Origin), 'unreachable' (no answer),
 * or 'ok' (it can be fetched now: the failure was something else). Never rejects.
 * @param {string | URL} url
 * @param {{ fetchImpl?: typeof fetch, pageProtocol?: string }} [options]
 */
export async function diagnoseFetch(
  url,
  { fetchImpl = fetch, pageProtocol = globalThis.location?.protocol } = {},
) {
  const href = String(url);
  let protocol = '';
  try {
    protocol = new URL(href).protocol;
  } catch {
    // a relative or broken URL: let fetch say what it makes of it
  }
  if (pageProtocol === 'file:' || protocol === 'file:')
    return { kind: 'file', url: href, status: 0 };
  try {
    const response = await fetchImpl(href, { cache: 'no-store' });
    response.body?.cancel().catch(() => {});
    return response.ok
      ? { kind: 'ok', url: href, status: response.status }
      : { kind: 'http', url: href, status: response.status };
  } catch {
    // refused (CORS) or unreachable: an opaque answer means the server did answer
  }
  try {
    await fetchImpl(href, { mode: 'no-cors', cache: 'no-store' });
    return { kind: 'cors', url: href, status: 0 };
  } catch {
    return { kind: 'unreachable', url: href, status: 0 };
  }
}

/**
 * The message for a failed fetch: what failed ('code', 'wasm', or 'model' with params.name), why
 * (problem: diagnoseFetch's, kind not 'ok') and the fix, in lang.
 * @param {string} lang
 * @param {'code' | 'wasm' | 'model'} what
 * @param {{ kind: string, url: string, status: number }} problem
 * @param {{ name?: string }} [params]
 */
export function fetchProblem(lang, what, problem, params = {}) {
  const { kind, url, status } = problem;
  const why =
    kind === 'http'
      ? [
          t(lang, 'load.http', { url, status }),
          t(lang, status === 404 || status === 410 ? `load.missing.${what}` : 'load.http.other'),
        ]
      : [t(lang, `load.${kind}`, { url })];
  return sentences(lang, [t(lang, SUBJECT[what], params), ...why]);
}
