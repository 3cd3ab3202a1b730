// webkit.test.js: the smoke suite (smoke.js) in WebKit, the engine of Safari: Debian's WebKitGTK
// MiniBrowser driven by WebKitWebDriver over plain W3C WebDriver (harness.js), on Xvfb.
// `make test-webkit` (the harness starts a private Xvfb display for it).

import { smokeSuite } from './smoke.js';

smokeSuite('webkit');
