// firefox.test.js: the smoke suite (smoke.js) in Firefox: Debian's firefox-esr, headless, driven
// over WebDriver BiDi by puppeteer-core (harness.js). `make test-firefox`.

import { smokeSuite } from './smoke.js';

smokeSuite('firefox');
